import { route } from '@/lib/http/route';
import { deleteApp } from '@/lib/domain/apps/delete-app';
import { getApp } from '@/lib/domain/apps/get-app';
import { updateApp } from '@/lib/domain/apps/update-app';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getApp, ({ params }) => getApp(params));
export const PATCH = route(operations.updateApp, ({ params, body }) => updateApp({ ...params, ...body }));
export const DELETE = route(operations.deleteApp, ({ params }) => deleteApp(params));
