import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { operations } from '@/lib/contract/operations';
import { getStats } from '@/lib/domain/stats/get-stats';

export const runtime = 'nodejs';

export const GET = route(operations.getStats, ({ principal, query }) =>
  getStats({ ...query, ...scopedApps(principal, query.appId) }),
);
