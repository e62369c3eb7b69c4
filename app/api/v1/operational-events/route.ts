import { route } from '@/lib/http/route';
import { scopedAppId } from '@/lib/http/scoped-app-id';
import { listOperationalEvents } from '@/lib/domain/operational-events/list-operational-events';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listOperationalEvents, ({ principal, query }) =>
  listOperationalEvents({ ...query, appId: scopedAppId(principal, query.appId) }),
);
