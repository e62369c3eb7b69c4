import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { withoutOperationalUrl, withoutOperationalUrlInEvent } from '@/lib/http/operational-urls';
import { getIssue } from '@/lib/domain/operational-events/get-issue';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getIssue, async ({ principal, params }) => {
  const issue = withoutOperationalUrl(principal, await getIssue({ ...params, ...scopedApps(principal, undefined) }));
  return { ...issue, events: issue.events.map((event) => withoutOperationalUrlInEvent(principal, event)) };
});
