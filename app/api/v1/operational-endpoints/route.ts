import { route } from '@/lib/http/route';
import { createOperationalEndpoint } from '@/lib/domain/operational-events/create-operational-endpoint';
import { listOperationalEndpoints } from '@/lib/domain/operational-events/list-operational-endpoints';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listOperationalEndpoints, ({ query }) => listOperationalEndpoints(query));
export const POST = route(operations.createOperationalEndpoint, ({ body }) => createOperationalEndpoint(body));
