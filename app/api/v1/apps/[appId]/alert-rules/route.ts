import { route } from '@/lib/http/route';
import { createAlertRule } from '@/lib/domain/operational-events/create-alert-rule';
import { listAlertRules } from '@/lib/domain/operational-events/list-alert-rules';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listAlertRules, ({ params, query }) => listAlertRules({ ...params, ...query }));
export const POST = route(operations.createAlertRule, ({ params, body }) => createAlertRule({ ...params, ...body }));
