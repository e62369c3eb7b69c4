import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { operations } from '@/lib/contract/operations';
import { getStats } from '@/lib/domain/stats/get-stats';

export const runtime = 'nodejs';

export const GET = route(operations.getStats, ({ principal, query }) =>
  getStats({ ...query, appId: scopedAppId(principal, query.appId) }),
);
