import { route } from '@/lib/http/route';
import { getEndpointSecrets } from '@/lib/domain/endpoints/get-endpoint-secrets';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getEndpointSecrets, ({ params }) => getEndpointSecrets(params));
