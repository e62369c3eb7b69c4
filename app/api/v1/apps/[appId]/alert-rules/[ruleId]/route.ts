import { route } from '@/lib/api/route';
import { deleteAlertRule } from '@/lib/operations/delete-alert-rule';
import { updateAlertRule } from '@/lib/operations/update-alert-rule';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const PATCH = route(operations.updateAlertRule, ({ params, body }) =>
  updateAlertRule({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteAlertRule, ({ params }) => deleteAlertRule(params));
