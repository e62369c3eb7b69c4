import { getPrisma } from '../../database/db';
import { publicDeliveryId, storedDeliveryId } from '../../database/ids';
import { notFound } from '../errors';
import { firstAttemptInFlight } from './first-attempts-in-flight';

/** The delivery's (public) id, only if it belongs to the app (a first attempt in flight too); else not_found. */
export async function findDelivery(appId: string, deliveryId: string): Promise<{ id: string }> {
  const prisma = getPrisma();
  // Not a delivery's id: no delivery has it (lib/database/ids.ts).
  const storedId = storedDeliveryId(deliveryId);
  if (storedId === null) throw notFound('Delivery', deliveryId);
  const written = () => prisma.delivery.findFirst({ where: { id: storedId, appId }, select: { id: true } });
  // Read again after the first attempts in flight: one whose outcome was written between the two reads
  // is in neither.
  const row = (await written()) ?? (await firstAttemptInFlight(prisma, appId, deliveryId)) ?? (await written());
  if (!row) throw notFound('Delivery', deliveryId);
  return { id: publicDeliveryId(row.id) };
}
