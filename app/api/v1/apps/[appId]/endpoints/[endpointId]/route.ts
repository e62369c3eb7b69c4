import { route } from '@/lib/http/route';
import { deleteEndpoint } from '@/lib/domain/endpoints/delete-endpoint';
import { getEndpoint } from '@/lib/domain/endpoints/get-endpoint';
import { updateEndpoint } from '@/lib/domain/endpoints/update-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getEndpoint, ({ params }) => getEndpoint(params));
export const PATCH = route(operations.updateEndpoint, ({ params, body }) =>
  updateEndpoint({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteEndpoint, ({ params }) => deleteEndpoint(params));
