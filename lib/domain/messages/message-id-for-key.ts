import { getPrisma } from '../../database/db';

/**
 * The message an idempotency key names, as an id condition for a list or a replay filter: the key
 * lives in hookline.idempotency_keys, unique across the time partitions of messages, which have no
 * index on it (migration 20261126130000_time_partitions). With `messageId` also given, the two must
 * name the same message. None: an id no message has, so the filter matches nothing.
 */
export async function messageIdForKey(appId: string, idempotencyKey: string, messageId?: string): Promise<string> {
  const key = await getPrisma().idempotencyKey.findUnique({
    where: { appId_idempotencyKey: { appId, idempotencyKey } },
  });
  if (!key || (messageId !== undefined && messageId !== key.messageId)) return '';
  return key.messageId;
}
