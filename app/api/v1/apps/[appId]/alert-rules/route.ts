import { route } from '@/lib/api/route';
import { createAlertRule } from '@/lib/operations/create-alert-rule';
import { listAlertRules } from '@/lib/operations/list-alert-rules';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listAlertRules, ({ params }) => listAlertRules(params));
export const POST = route(operations.createAlertRule, ({ params, body }) => createAlertRule({ ...params, ...body }));
