import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { listIssues } from '@/lib/domain/operational-events/list-issues';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listIssues, ({ principal, query }) =>
  listIssues({ ...query, ...scopedApps(principal, query.appId) }),
);
