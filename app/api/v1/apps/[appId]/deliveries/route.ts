import { route } from '@/lib/http/route';
import { listDeliveries } from '@/lib/domain/deliveries/list-deliveries';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listDeliveries, ({ params, query: { limit, cursor, ...filter } }) =>
  listDeliveries({ ...params, filter, limit, cursor }),
);
