import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../../database/db';
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
  const prisma = getPrisma();
  const page = await findPage({ where: deliveryWhere(appId, filter), cursor, limit }, (query) =>
    prisma.delivery.findMany({ ...query, include: deliveryInclude }),
  );
  return { data: page.data.map(deliveryView), nextCursor: page.nextCursor };
}
