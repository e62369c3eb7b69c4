import { route } from '@/lib/api/route';
import { getEndpointSecrets } from '@/lib/endpoints/get-endpoint-secrets';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getEndpointSecrets, ({ params }) => getEndpointSecrets(params));
