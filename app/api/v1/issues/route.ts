import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { withoutOperationalUrl } from '@/lib/http/operational-urls';
import { listIssues } from '@/lib/domain/operational-events/list-issues';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listIssues, async ({ principal, query }) => {
  const page = await listIssues({ ...query, ...scopedApps(principal, query.appId) });
  return { ...page, data: page.data.map((issue) => withoutOperationalUrl(principal, issue)) };
});
