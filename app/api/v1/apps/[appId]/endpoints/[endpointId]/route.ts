import { route } from '@/lib/api/route';
import { deleteEndpoint } from '@/lib/endpoints/delete-endpoint';
import { getEndpoint } from '@/lib/endpoints/get-endpoint';
import { updateEndpoint } from '@/lib/endpoints/update-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getEndpoint, ({ params }) => getEndpoint(params));
export const PATCH = route(operations.updateEndpoint, ({ params, body }) => updateEndpoint({ ...params, changes: body }));
export const DELETE = route(operations.deleteEndpoint, ({ params }) => deleteEndpoint(params));
