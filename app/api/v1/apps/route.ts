import { route } from '@/lib/api/route';
import { createApp } from '@/lib/apps/create-app';
import { listApps } from '@/lib/apps/list-apps';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listApps, ({ principal, query }) => listApps({ onlyAppId: principal.appId, ...query }));
export const POST = route(operations.createApp, ({ body }) => createApp(body));
