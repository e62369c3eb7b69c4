import { route } from '@/lib/api/route';
import { scopedAppId } from '@/lib/api/scoped-app-id';
import { listOperationalEvents } from '@/lib/operations/list-operational-events';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listOperationalEvents, ({ principal, query }) =>
  listOperationalEvents({ ...query, appId: scopedAppId(principal, query.appId) }),
);
