import { route } from '@/lib/api/route';
import { disableEndpoint } from '@/lib/endpoints/disable-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.disableEndpoint, ({ params, body }) => disableEndpoint({ ...params, ...body }));
