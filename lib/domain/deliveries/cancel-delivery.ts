import { getPrisma } from '../../database/db';
import { storedDeliveryId } from '../../database/ids';
import { recordAuditEvent } from '../audit/record-audit-event';
import { DomainError, notFound } from '../errors';
import { deliveryStateOf } from './delivery-states';
import { deliveryInclude, deliveryViews } from './delivery-view';
import { firstAttemptInFlight, firstAttemptInFlightError } from './first-attempts-in-flight';

/**
 * Stops a delivery that has not finished. Cancelling one in flight wins over its worker: the worker's
 * write-back is fenced on its lease (lease_owner), which this clears, so the attempt in progress is
 * not recorded. A cancelled delivery leaves the claim queue (claimable_at NULL).
 */
export async function cancelDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  // Not a delivery's id: no delivery has it (lib/database/ids.ts).
  const storedId = storedDeliveryId(deliveryId);
  if (storedId === null) throw notFound('Delivery', deliveryId);
  const count = await prisma.$transaction(async (tx) => {
    const { count } = await tx.delivery.updateMany({
      where: { id: storedId, appId, state: { in: ['pending', 'delivering'] } },
      data: { state: 'cancelled', leaseOwner: null, leaseExpiresAt: null, claimableAt: null, updatedAt: new Date() },
    });
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: 'delivery.cancelled',
        resourceType: 'delivery',
        resourceId: deliveryId,
        appId,
        after: { state: 'cancelled' },
      });
    }
    return count;
  });
  const row = await prisma.delivery.findFirst({ where: { id: storedId, appId }, include: deliveryInclude });
  if (!row) {
    // Its first attempt's row is written with the outcome: nothing to cancel until then.
    if (await firstAttemptInFlight(prisma, appId, deliveryId)) throw firstAttemptInFlightError('cancel');
    throw notFound('Delivery', deliveryId);
  }
  if (count === 0)
    throw new DomainError(
      'delivery_finished',
      `The delivery is already ${deliveryStateOf(row)}; only waiting, retrying or delivering ones can be cancelled`,
    );
  return (await deliveryViews(prisma, [row]))[0]!;
}
