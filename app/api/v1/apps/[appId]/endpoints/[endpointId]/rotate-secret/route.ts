import { route } from '@/lib/http/route';
import { rotateEndpointSecret } from '@/lib/domain/endpoints/rotate-endpoint-secret';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.rotateEndpointSecret, ({ params, body }) =>
  rotateEndpointSecret({ ...params, ...body }),
);
