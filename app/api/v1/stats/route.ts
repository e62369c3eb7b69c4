import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { operations } from '@/lib/openapi/operations';
import { getStats } from '@/lib/stats/get-stats';

export const runtime = 'nodejs';

export const GET = route(operations.getStats, ({ principal, query }) =>
  getStats({ ...query, appId: scopedAppId(principal, query.appId) }));
