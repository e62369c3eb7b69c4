import { route } from '@/lib/api/route';
import { listDeliveries } from '@/lib/deliveries/list-deliveries';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listDeliveries, ({ params, query: { limit, cursor, ...filter } }) =>
  listDeliveries({ ...params, filter, limit, cursor }));
