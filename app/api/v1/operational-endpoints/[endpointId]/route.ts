import { route } from '@/lib/http/route';
import { deleteOperationalEndpoint } from '@/lib/domain/operational-events/delete-operational-endpoint';
import { getOperationalEndpoint } from '@/lib/domain/operational-events/get-operational-endpoint';
import { updateOperationalEndpoint } from '@/lib/domain/operational-events/update-operational-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getOperationalEndpoint, ({ params }) => getOperationalEndpoint(params));
export const PATCH = route(operations.updateOperationalEndpoint, ({ params, body }) =>
  updateOperationalEndpoint({ ...params, changes: body }),
);
export const DELETE = route(operations.deleteOperationalEndpoint, ({ params }) => deleteOperationalEndpoint(params));
