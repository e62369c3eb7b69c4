import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import type { ListMessagesQuery } from '../../contract/schemas/messages';
import { payloadCondition } from '../search/payload-condition';
import { messageIdForKey } from './message-id-for-key';
import { withOutcomes } from './with-outcomes';
import { searchMessages } from './search-messages';

type ListMessagesOptions = Omit<ListMessagesQuery, 'limit'> & { appId: string; limit: number };

/**
 * Newest first, each with its deliveries counted by state. Without new indexes on messages or
 * deliveries: id and idempotency key are unique lookups (a key through hookline.idempotency_keys); the
 * delivery conditions (status code, error class, attempts) are an EXISTS per message through
 * deliveries_message_id_idx while the (app_id, created_at) index walks the app's messages. A payload
 * search (search, payloadPath) walks back through time under a budget instead: searchMessages.
 */
export async function listMessages(options: ListMessagesOptions) {
  const { appId, limit, cursor } = options;
  await requireApp(appId);
  const condition = payloadCondition(options);
  const where = await messageWhere(options);
  if (condition) return searchMessages({ appId, where, condition, limit, cursor, from: options.from, to: options.to });
  const prisma = await readPrisma();
  const page = await findPage({ where, cursor, limit }, (query) => prisma.message.findMany(query));
  return { ...(await withOutcomes(appId, page.data)), nextCursor: page.nextCursor, searchedBackTo: null };
}

/** The list's filters but the payload search, as a Prisma condition. */
async function messageWhere({ appId, ...filter }: ListMessagesOptions): Promise<Prisma.MessageWhereInput> {
  const where: Prisma.MessageWhereInput = {
    appId,
    id:
      filter.idempotencyKey === undefined ? filter.id : await messageIdForKey(appId, filter.idempotencyKey, filter.id),
    eventType: filter.eventType,
    createdAt: { gte: filter.from, lt: filter.to },
  };
  const delivery: Prisma.DeliveryWhereInput = {
    lastStatusCode: filter.statusCode,
    lastErrorClass: filter.errorClass,
    ...(filter.minAttempts !== undefined ? { attemptCount: { gte: filter.minAttempts } } : {}),
  };
  if (Object.values(delivery).some((value) => value !== undefined)) where.deliveries = { some: delivery };
  return where;
}
