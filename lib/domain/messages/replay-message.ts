import { getPrisma } from '../../database/db';
import { storedMessageId } from '../../database/ids';
import { deliveriesOfMessages } from '../deliveries/deliveries-of-messages';
import { replayDeliveries } from '../deliveries/replay-deliveries';
import { notFound } from '../errors';

/** Sends the message again to every endpoint it was delivered to (or is still being retried for). */
export async function replayMessage({ appId, messageId }: { appId: string; messageId: string }) {
  const stored = storedMessageId(messageId);
  const message =
    stored && (await getPrisma().message.findFirst({ where: { id: stored, appId }, select: { id: true } }));
  if (!message) throw notFound('Message', messageId);
  return {
    replayed: await replayDeliveries({
      appId,
      where: await deliveriesOfMessages([messageId]),
      audit: { resourceType: 'message', resourceId: messageId },
    }),
  };
}
