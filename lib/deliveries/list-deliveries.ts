import { pageArgs, toPage } from '../api/cursor';
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
import type { DeliveryFilter } from '../schemas/deliveries';
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
  const rows = await getPrisma().delivery.findMany({
    where: deliveryWhere(appId, filter),
    include: deliveryInclude,
    ...pageArgs(cursor, limit),
  });
  return toPage(rows, limit, deliveryView);
}
