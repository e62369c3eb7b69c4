import { getPrisma } from '../../database/db';
import { publicMessageId } from '../../database/ids';

/**
 * The message an idempotency key names, as an id condition for a list or a replay filter: the key
 * lives in hookline.idempotency_keys, unique across the time partitions of messages, which have no
 * index on it (migration 20261126130000_time_partitions). With `messageId` also given, the two must
 * name the same message. Answers its public id, as a caller's `messageId` filter is; none: '', an id
 * no message has (not even a message id: storedMessageId answers null for it), so the filter matches
 * nothing.
 */
export async function messageIdForKey(appId: string, idempotencyKey: string, messageId?: string): Promise<string> {
  const key = await getPrisma().idempotencyKey.findUnique({
    where: { appId_idempotencyKey: { appId, idempotencyKey } },
  });
  const named = key && publicMessageId(key.messageId);
  if (!named || (messageId !== undefined && messageId !== named)) return '';
  return named;
}
