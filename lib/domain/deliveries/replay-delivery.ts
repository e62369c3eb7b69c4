import { getPrisma } from '../../database/db';
import { storedDeliveryId } from '../../database/ids';
import { DomainError, notFound } from '../errors';
import { firstAttemptInFlight, firstAttemptInFlightError } from './first-attempts-in-flight';
import { replayDeliveries } from './replay-deliveries';

export async function replayDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  // Not a delivery's id: no delivery has it (lib/database/ids.ts).
  const storedId = storedDeliveryId(deliveryId);
  if (storedId === null) throw notFound('Delivery', deliveryId);
  const row = await prisma.delivery.findFirst({ where: { id: storedId, appId }, select: { state: true } });
  if (!row) {
    if (await firstAttemptInFlight(prisma, appId, deliveryId)) throw firstAttemptInFlightError('replay');
    throw notFound('Delivery', deliveryId);
  }
  const replayed = await replayDeliveries({
    appId,
    where: { id: storedId },
    audit: { resourceType: 'delivery', resourceId: deliveryId },
  });
  if (replayed === 0) {
    throw new DomainError(
      'delivery_in_flight',
      'The delivery is being sent right now; replay it once this attempt is recorded',
    );
  }
  return { replayed };
}
