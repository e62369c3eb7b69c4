import { route } from '@/lib/http/route';
import { scopedApps } from '@/lib/http/scoped-apps';
import { holds, OPERATION_PERMISSION } from '@/lib/http/permissions';
import { withoutOperationalUrlInEvent } from '@/lib/http/operational-urls';
import { listOperationalEvents } from '@/lib/domain/operational-events/list-operational-events';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listOperationalEvents, async ({ principal, query }) => {
  const page = await listOperationalEvents({
    ...query,
    ...scopedApps(principal, query.appId),
    // What the audit log would show it: the actor, address and reason of a sensitive change.
    withAuditChanges: holds(principal, OPERATION_PERMISSION.listAuditEvents),
  });
  return { ...page, data: page.data.map((event) => withoutOperationalUrlInEvent(principal, event)) };
});
