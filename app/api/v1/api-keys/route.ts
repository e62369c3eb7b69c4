import { createApiKey } from '@/lib/api-keys/create-api-key';
import { listApiKeys } from '@/lib/api-keys/list-api-keys';
import { route } from '@/lib/api/route';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listApiKeys, ({ query }) => listApiKeys(query));
export const POST = route(operations.createApiKey, ({ body }) => createApiKey(body));
