import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import { deliveryInclude, deliveryView } from './delivery-view';
import { deliveryWhere } from './delivery-where';

export async function listDeliveries({
  appId,
  filter,
  limit,
  cursor,
}: {
  appId: string;
  filter: DeliveryFilter;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = await readPrisma();
  const where = await deliveryWhere(appId, filter);
  const page = await findPage({ where, cursor, limit }, (query) =>
    prisma.delivery.findMany({ ...query, include: deliveryInclude }),
  );
  return { data: page.data.map(deliveryView), nextCursor: page.nextCursor };
}
