import { getPrisma } from '../../database/db';
import { DomainError, notFound } from '../errors';
import { firstAttemptInFlight, firstAttemptInFlightError } from './first-attempts-in-flight';
import { replayDeliveries } from './replay-deliveries';

export async function replayDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  const row = await prisma.delivery.findFirst({ where: { id: deliveryId, appId }, select: { state: true } });
  if (!row) {
    if (await firstAttemptInFlight(prisma, appId, deliveryId)) throw firstAttemptInFlightError('replay');
    throw notFound('Delivery', deliveryId);
  }
  const replayed = await replayDeliveries({
    appId,
    where: { id: deliveryId },
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
