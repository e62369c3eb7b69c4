import { route } from '@/lib/http/route';
import { createEndpoint } from '@/lib/domain/endpoints/create-endpoint';
import { listEndpoints } from '@/lib/domain/endpoints/list-endpoints';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listEndpoints, ({ params, query }) => listEndpoints({ ...params, ...query }));
export const POST = route(operations.createEndpoint, ({ params, body }) => createEndpoint({ ...params, ...body }));
