import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { countIssues } from '@/lib/domain/operational-events/count-issues';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.countIssues, ({ principal, query }) =>
  countIssues({ ...scopedApps(principal, query.appId) }),
);
