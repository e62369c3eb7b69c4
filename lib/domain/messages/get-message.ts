import { getPrisma } from '../../database/db';
import { deliveriesOfMessages } from '../deliveries/deliveries-of-messages';
import { deliveryInclude, deliveryView } from '../deliveries/delivery-view';
import { notFound } from '../errors';
import { messageView } from './message-view';

export async function getMessage({ appId, messageId }: { appId: string; messageId: string }) {
  const prisma = getPrisma();
  const message = await prisma.message.findFirst({ where: { id: messageId, appId } });
  if (!message) throw notFound('Message', messageId);
  const deliveries = await prisma.delivery.findMany({
    where: { AND: [{ appId }, await deliveriesOfMessages([messageId], prisma)] },
    include: deliveryInclude,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { ...messageView(message), deliveries: deliveries.map(deliveryView) };
}
