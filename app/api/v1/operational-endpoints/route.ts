import { route } from '@/lib/api/route';
import { createOperationalEndpoint } from '@/lib/operations/create-operational-endpoint';
import { listOperationalEndpoints } from '@/lib/operations/list-operational-endpoints';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listOperationalEndpoints, ({ query }) => listOperationalEndpoints(query));
export const POST = route(operations.createOperationalEndpoint, ({ body }) => createOperationalEndpoint(body));
