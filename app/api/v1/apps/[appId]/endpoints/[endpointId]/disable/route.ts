import { route } from '@/lib/http/route';
import { disableEndpoint } from '@/lib/domain/endpoints/disable-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.disableEndpoint, ({ params, body }) => disableEndpoint({ ...params, ...body }));
