import { route } from '@/lib/api/route';
import { rotateEndpointSecret } from '@/lib/endpoints/rotate-endpoint-secret';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.rotateEndpointSecret, ({ params, body }) =>
  rotateEndpointSecret({ ...params, ...body }));
