import { route } from '@/lib/api/route';
import { deleteOperationalEndpoint } from '@/lib/operations/delete-operational-endpoint';
import { getOperationalEndpoint } from '@/lib/operations/get-operational-endpoint';
import { updateOperationalEndpoint } from '@/lib/operations/update-operational-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getOperationalEndpoint, ({ params }) => getOperationalEndpoint(params));
export const PATCH = route(operations.updateOperationalEndpoint, ({ params, body }) =>
  updateOperationalEndpoint({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteOperationalEndpoint, ({ params }) => deleteOperationalEndpoint(params));
