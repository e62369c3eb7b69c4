import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { withoutOperationalUrls } from '@/lib/http/operational-urls';
import { operations } from '@/lib/contract/operations';
import { getStats } from '@/lib/domain/stats/get-stats';

export const runtime = 'nodejs';

export const GET = route(operations.getStats, async ({ principal, query }) => {
  const stats = await getStats({ ...query, ...scopedApps(principal, query.appId) });
  return { ...stats, worstEndpoints: withoutOperationalUrls(principal, stats.worstEndpoints) };
});
