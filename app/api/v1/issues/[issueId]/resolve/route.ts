import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { resolveIssue } from '@/lib/operations/set-issue-status';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.resolveIssue, ({ principal, params }) =>
  resolveIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
