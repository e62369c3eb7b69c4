import { getPrisma } from '../db';
import { notFound } from '../errors';
import { messageView } from '../messages/message-view';
import { attemptView, deliveryInclude, deliveryView } from './delivery-view';

export async function getDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  const row = await prisma.delivery.findFirst({
    where: { id: deliveryId, appId },
    include: { ...deliveryInclude, message: true },
  });
  if (!row) throw notFound('Delivery', deliveryId);
  const attempts = await prisma.attempt.findMany({
    where: { deliveryId, appId },
    orderBy: [{ attemptNumber: 'asc' }, { startedAt: 'asc' }],
  });
  return { ...deliveryView(row), attempts: attempts.map(attemptView), message: messageView(row.message) };
}
