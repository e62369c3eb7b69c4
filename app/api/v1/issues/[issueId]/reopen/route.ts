import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { reopenIssue } from '@/lib/domain/operational-events/set-issue-status';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.reopenIssue, ({ principal, params }) =>
  reopenIssue({ ...params, appId: scopedAppId(principal, undefined) }),
);
