import { revokeApiKey } from '@/lib/api-keys/revoke-api-key';
import { route } from '@/lib/api/route';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const DELETE = route(operations.revokeApiKey, ({ params }) => revokeApiKey(params));
