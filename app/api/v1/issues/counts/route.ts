import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { countIssues } from '@/lib/operations/count-issues';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.countIssues, ({ principal, query }) =>
  countIssues({ appId: scopedAppId(principal, query.appId) }),
);
