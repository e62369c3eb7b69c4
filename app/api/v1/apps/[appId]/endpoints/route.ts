import { route } from '@/lib/api/route';
import { createEndpoint } from '@/lib/endpoints/create-endpoint';
import { listEndpoints } from '@/lib/endpoints/list-endpoints';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listEndpoints, ({ params, query }) => listEndpoints({ ...params, ...query }));
export const POST = route(operations.createEndpoint, ({ params, body }) => createEndpoint({ ...params, ...body }));
