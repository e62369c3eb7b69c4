import { revokeApiKey } from '@/lib/domain/api-keys/revoke-api-key';
import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const DELETE = route(operations.revokeApiKey, ({ params }) => revokeApiKey(params));
