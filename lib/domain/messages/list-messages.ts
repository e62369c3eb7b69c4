import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import { invalidQuery } from '../errors';
import type { Prisma } from '../../generated/prisma/client';
import { MAX_PAYLOAD_SEARCH_HOURS, type ListMessagesQuery } from '../../contract/schemas/messages';
import { countMessageOutcomes } from './count-message-outcomes';
import { messageIdForKey } from './message-id-for-key';
import { messageView } from './message-view';

/**
 * Newest first, each with its deliveries counted by state. Without new indexes on messages or
 * deliveries: id and idempotency key are unique lookups (a key through hookline.idempotency_keys); the delivery conditions (status code, error
 * class, attempts) are an EXISTS per message through deliveries_message_id_idx while the (app_id,
 * created_at) index walks the app's messages; a payload search is bounded to a window of at most
 * MAX_PAYLOAD_SEARCH_HOURS (see the schema).
 */
export async function listMessages({
  appId,
  limit,
  cursor,
  ...filter
}: Omit<ListMessagesQuery, 'limit'> & { appId: string; limit: number }) {
  await requireApp(appId);
  const prisma = await readPrisma();
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
  if (filter.payloadPath !== undefined || filter.payloadValue !== undefined) {
    where.payload = payloadCondition(filter);
  }
  const page = await findPage({ where, cursor, limit }, (query) => prisma.message.findMany(query));
  const outcomes = await countMessageOutcomes(
    appId,
    page.data.map((row) => row.id),
  );
  return {
    data: page.data.map((row) => ({ ...messageView(row), outcome: outcomes.get(row.id)! })),
    nextCursor: page.nextCursor,
  };
}

function payloadCondition(filter: Pick<ListMessagesQuery, 'payloadPath' | 'payloadValue' | 'from' | 'to'>) {
  if (!filter.payloadPath) throw invalidQuery('payloadPath', 'is required with payloadValue');
  if (filter.payloadValue === undefined) throw invalidQuery('payloadValue', 'is required with payloadPath');
  if (
    !filter.from ||
    !filter.to ||
    filter.to.getTime() - filter.from.getTime() > MAX_PAYLOAD_SEARCH_HOURS * 3_600_000
  ) {
    throw invalidQuery(
      'from',
      `a payload search needs from and to at most ${MAX_PAYLOAD_SEARCH_HOURS} hours apart (it reads every message in that window)`,
    );
  }
  let value: unknown = filter.payloadValue;
  try {
    value = JSON.parse(filter.payloadValue);
  } catch {
    // Not JSON: compare as the plain string it is.
  }
  return { path: filter.payloadPath.split('.'), equals: value as Prisma.InputJsonValue };
}
