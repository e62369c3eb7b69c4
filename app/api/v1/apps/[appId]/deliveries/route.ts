import { route } from '@/lib/http/route';
import { listDeliveries } from '@/lib/domain/deliveries/list-deliveries';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(
  operations.listDeliveries,
  ({ params, query: { limit, cursor, search, payloadPath, payloadValue, payloadMatch, ...filter } }) =>
    listDeliveries({ ...params, filter, search: { search, payloadPath, payloadValue, payloadMatch }, limit, cursor }),
);
