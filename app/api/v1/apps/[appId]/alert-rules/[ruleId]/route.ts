import { route } from '@/lib/http/route';
import { deleteAlertRule } from '@/lib/domain/operational-events/delete-alert-rule';
import { updateAlertRule } from '@/lib/domain/operational-events/update-alert-rule';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const PATCH = route(operations.updateAlertRule, ({ params, body }) =>
  updateAlertRule({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteAlertRule, ({ params }) => deleteAlertRule(params));
