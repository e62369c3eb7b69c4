import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { firstAttemptInFlight } from './first-attempts-in-flight';

/** The delivery's id, only if it belongs to the app (a first attempt in flight too); else not_found. */
export async function findDelivery(appId: string, deliveryId: string): Promise<{ id: string }> {
  const prisma = getPrisma();
  const written = () => prisma.delivery.findFirst({ where: { id: deliveryId, appId }, select: { id: true } });
  // Read again after the first attempts in flight: one whose outcome was written between the two reads
  // is in neither.
  const row = (await written()) ?? (await firstAttemptInFlight(prisma, appId, deliveryId)) ?? (await written());
  if (!row) throw notFound('Delivery', deliveryId);
  return { id: row.id };
}
