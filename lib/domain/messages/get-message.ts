import { getPrisma } from '../../database/db';
import { deliveryInclude, deliveryView } from '../deliveries/delivery-view';
import { notFound } from '../errors';
import { messageView } from './message-view';

export async function getMessage({ appId, messageId }: { appId: string; messageId: string }) {
  const prisma = getPrisma();
  const message = await prisma.message.findFirst({ where: { id: messageId, appId } });
  if (!message) throw notFound('Message', messageId);
  const deliveries = await prisma.delivery.findMany({
    where: { appId, messageId },
    include: deliveryInclude,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { ...messageView(message), deliveries: deliveries.map(deliveryView) };
}
