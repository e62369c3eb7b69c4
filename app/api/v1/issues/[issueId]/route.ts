import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { getIssue } from '@/lib/domain/operational-events/get-issue';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getIssue, ({ principal, params }) =>
  getIssue({ ...params, ...scopedApps(principal, undefined) }),
);
