import { createApiKey } from '@/lib/domain/api-keys/create-api-key';
import { listApiKeys } from '@/lib/domain/api-keys/list-api-keys';
import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listApiKeys, ({ query }) => listApiKeys(query));
export const POST = route(operations.createApiKey, ({ principal, body }) =>
  createApiKey({ ...body, createdBy: principal.kind === 'admin' ? principal.userId : null }),
);
