import { route } from '@/lib/api/route';
import { deleteApp } from '@/lib/apps/delete-app';
import { getApp } from '@/lib/apps/get-app';
import { updateApp } from '@/lib/apps/update-app';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getApp, ({ params }) => getApp(params));
export const PATCH = route(operations.updateApp, ({ params, body }) => updateApp({ ...params, ...body }));
export const DELETE = route(operations.deleteApp, ({ params }) => deleteApp(params));
