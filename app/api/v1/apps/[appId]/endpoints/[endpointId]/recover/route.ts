import { route } from '@/lib/api/route';
import { recoverEndpoint } from '@/lib/endpoints/recover-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.recoverEndpoint, ({ params, body }) => recoverEndpoint({ ...params, ...body }));
