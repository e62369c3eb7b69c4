import { route } from '@/lib/api/route';
import { deleteAlertRule, updateAlertRule } from '@/lib/operations/alert-rules';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const PATCH = route(operations.updateAlertRule, ({ params, body }) =>
  updateAlertRule({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteAlertRule, ({ params }) => deleteAlertRule(params));
