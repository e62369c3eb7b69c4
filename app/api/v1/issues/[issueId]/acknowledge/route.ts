import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { acknowledgeIssue } from '@/lib/operations/set-issue-status';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.acknowledgeIssue, ({ principal, params }) =>
  acknowledgeIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
