import { route } from '@/lib/http/route';
import { recoverEndpoint } from '@/lib/domain/endpoints/recover-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.recoverEndpoint, ({ params, body }) => recoverEndpoint({ ...params, ...body }));
