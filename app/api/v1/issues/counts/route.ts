import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { countIssues } from '@/lib/domain/operational-events/count-issues';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.countIssues, ({ principal, query }) =>
  countIssues({ appId: scopedAppId(principal, query.appId) }),
);
