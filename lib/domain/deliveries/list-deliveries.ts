import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import type { PayloadSearchParams } from '../../contract/schemas/payload-search';
import { payloadCondition } from '../search/payload-condition';
import { deliveryInclude, deliveryView } from './delivery-view';
import { deliveryWhere } from './delivery-where';
import { searchDeliveries } from './search-deliveries';

/** Newest first. With a payload search (search, payloadPath), the deliveries of the matching messages,
 * found by walking back through time under a budget: searchDeliveries. */
export async function listDeliveries({
  appId,
  filter,
  search = {},
  limit,
  cursor,
}: {
  appId: string;
  filter: DeliveryFilter;
  search?: PayloadSearchParams;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const condition = payloadCondition(search);
  if (condition) return searchDeliveries({ appId, filter, condition, limit, cursor });
  const prisma = await readPrisma();
  const where = await deliveryWhere(appId, filter, prisma);
  const page = await findPage({ where, cursor, limit }, (query) =>
    prisma.delivery.findMany({ ...query, include: deliveryInclude }),
  );
  return { data: page.data.map(deliveryView), nextCursor: page.nextCursor, searchedBackTo: null };
}
