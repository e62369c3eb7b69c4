import { route } from '@/lib/http/route';
import { createApp } from '@/lib/domain/apps/create-app';
import { listApps } from '@/lib/domain/apps/list-apps';
import { operations } from '@/lib/contract/operations';
import { visibleAppIds } from '@/lib/domain/auth/principal';
import { OPERATIONS_APP_ID } from '@/lib/domain/operational-events/operations-app';
import { holds } from '@/lib/http/permissions';

export const runtime = 'nodejs';

// The operations app answers its /apps routes only to operations.manage (lib/http/permissions.ts):
// listed to anyone else, it was an app they could not open.
export const GET = route(operations.listApps, ({ principal, query }) =>
  listApps({
    onlyAppIds: visibleAppIds(principal),
    exceptAppIds: holds(principal, 'operations.manage') ? [] : [OPERATIONS_APP_ID],
    ...query,
  }),
);
export const POST = route(operations.createApp, ({ body }) => createApp(body));
