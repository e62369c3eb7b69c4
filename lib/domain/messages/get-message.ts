import { getPrisma } from '../../database/db';
import { storedMessageId } from '../../database/ids';
import { deliveriesOfMessages } from '../deliveries/deliveries-of-messages';
import { deliveryInclude, deliveryViews } from '../deliveries/delivery-view';
import { firstAttemptsInFlight, newestFirst } from '../deliveries/first-attempts-in-flight';
import { notFound } from '../errors';
import { messageView } from './message-view';

export async function getMessage({ appId, messageId }: { appId: string; messageId: string }) {
  const prisma = getPrisma();
  const stored = storedMessageId(messageId);
  const message = stored && (await prisma.message.findFirst({ where: { id: stored, appId } }));
  if (!message) throw notFound('Message', messageId);
  const written = await prisma.delivery.findMany({
    where: { AND: [{ appId }, await deliveriesOfMessages([messageId], prisma)] },
    include: deliveryInclude,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  // Its first attempts being sent now have no row yet (lib/domain/deliveries/first-attempts-in-flight.ts);
  // oldest first, as the written rows are read.
  const inFlight = await firstAttemptsInFlight(prisma, appId, [messageId]);
  const deliveries = [...written, ...inFlight].sort((a, b) => newestFirst(b, a));
  return { ...messageView(message), deliveries: await deliveryViews(prisma, deliveries) };
}
