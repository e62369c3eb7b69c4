import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { listIssues } from '@/lib/domain/operational-events/list-issues';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listIssues, ({ principal, query }) =>
  listIssues({ ...query, appId: scopedAppId(principal, query.appId) }),
);
