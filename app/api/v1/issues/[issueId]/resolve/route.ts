import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { resolveIssue } from '@/lib/domain/operational-events/set-issue-status';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.resolveIssue, ({ principal, params }) =>
  resolveIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
