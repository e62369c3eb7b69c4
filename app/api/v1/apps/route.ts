import { route } from '@/lib/http/route';
import { createApp } from '@/lib/domain/apps/create-app';
import { listApps } from '@/lib/domain/apps/list-apps';
import { operations } from '@/lib/contract/operations';
import { visibleAppIds } from '@/lib/domain/auth/principal';

export const runtime = 'nodejs';

export const GET = route(operations.listApps, ({ principal, query }) =>
  listApps({ onlyAppIds: visibleAppIds(principal), ...query }),
);
export const POST = route(operations.createApp, ({ body }) => createApp(body));
