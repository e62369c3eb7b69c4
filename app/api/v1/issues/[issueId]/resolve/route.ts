import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { resolveIssue } from '@/lib/domain/operational-events/set-issue-status';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.resolveIssue, ({ principal, params }) =>
  resolveIssue({ ...params, ...scopedApps(principal, undefined) }),
);
