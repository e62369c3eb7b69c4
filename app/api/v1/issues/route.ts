import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { listIssues } from '@/lib/operations/list-issues';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listIssues, ({ principal, query }) =>
  listIssues({ ...query, appId: scopedAppId(principal, query.appId) }),
);
