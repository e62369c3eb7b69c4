import { getPrisma } from '../../database/db';
import { notFound } from '../errors';

/** The delivery's id, only if it belongs to the app; else not_found. */
export async function findDelivery(appId: string, deliveryId: string): Promise<{ id: string }> {
  const row = await getPrisma().delivery.findFirst({ where: { id: deliveryId, appId }, select: { id: true } });
  if (!row) throw notFound('Delivery', deliveryId);
  return row;
}
