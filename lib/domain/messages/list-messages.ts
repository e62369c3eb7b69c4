import { decodeCursor, encodeCursor } from '../cursor';
import { requireApp } from '../apps/require-app';
import { idTimeMs, storedIdAt, storedMessageId } from '../../database/ids';
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import type { ListMessagesQuery } from '../../contract/schemas/messages';
import { deliveriesCondition, deliveryConditionsSql, eventTypeCondition } from '../search/delivery-conditions';
import { payloadCondition } from '../search/payload-condition';
import { messageIdForKey } from './message-id-for-key';
import { withOutcomes } from './with-outcomes';
import { searchMessages, searchMessagesByDeliveries } from './search-messages';

type ListMessagesOptions = Omit<ListMessagesQuery, 'limit'> & { appId: string; limit: number };

/**
 * Newest first, each with its deliveries counted by state. With no index but the ones a producer's
 * message row needs: the app's part of messages_pkey (app_id, id) read backwards is its messages newest
 * first (an id begins with its millisecond), id and idempotency key are unique lookups (a key through
 * hookline.idempotency_keys), and the time range is a range of ids (messageWhere). The event type, a payload
 * search (search, payloadPath) and a condition on the messages' deliveries (status code, error class,
 * attempts) walk back through time under a budget instead: searchMessages walks the messages, and
 * searchMessagesByDeliveries the deliveries when only their conditions (and the event type) are asked.
 */
export async function listMessages(options: ListMessagesOptions) {
  const { appId, limit, cursor } = options;
  await requireApp(appId);
  const only = await onlyMessage(options);
  const where = messageWhere(options, only);
  const payload = payloadCondition(options);
  const onDeliveries =
    options.statusCode !== undefined || options.errorClass !== undefined || options.minAttempts !== undefined;
  if (onDeliveries && payload === null && only === undefined) {
    // A condition on the messages' deliveries, no payload search and no one message asked for: the
    // deliveries are walked, each naming its message (searchMessagesByDeliveries); a delivery's event
    // type is its message's.
    return searchMessagesByDeliveries({
      appId,
      where,
      deliveryConditions: deliveryConditionsSql({
        eventType: options.eventType,
        statusCode: options.statusCode,
        errorClass: options.errorClass,
        minAttempts: options.minAttempts,
      }),
      limit,
      cursor,
      from: options.from,
      to: options.to,
    });
  }
  // The event type first: it spares the messages of other types the payload's and the deliveries' checks.
  const conditions = [
    eventTypeCondition(options.eventType),
    payload,
    deliveriesCondition({
      statusCode: options.statusCode,
      errorClass: options.errorClass,
      minAttempts: options.minAttempts,
    }),
  ].filter((c) => c !== null);
  if (conditions.length > 0) {
    // One message asked for (id, idempotency key): a walk over its millisecond alone; none for an id
    // or a key that names no message.
    const range =
      only === null
        ? { from: new Date(0), to: new Date(0) }
        : only === undefined
          ? { from: options.from, to: options.to }
          : { from: new Date(idTimeMs(only)), to: new Date(idTimeMs(only) + 1) };
    return searchMessages({ appId, where, condition: Prisma.join(conditions, ' AND '), limit, cursor, ...range });
  }
  const page = await findMessagePage({ where, cursor, limit });
  return { ...(await withOutcomes(appId, page.data)), nextCursor: page.nextCursor, searchedBackTo: null };
}

/**
 * A page of the app's messages by id, newest first, below the cursor's id. No cursor row is read: a
 * message retention dropped still bounds the page. A cursor handed out before migration
 * 20261207090000_messages_keyed_by_app (pages then went by created_at, then id) goes on below its row's
 * id too: a message whose transaction began before that row's but wrote it later sorted after the
 * cursor then and above it now, and is not on the pages that follow (a client paging across the
 * upgrade only).
 */
async function findMessagePage({
  where,
  cursor,
  limit,
}: {
  where: Prisma.MessageWhereInput;
  cursor?: string;
  limit: number;
}) {
  const position = decodeCursor(cursor);
  // The cursor names its row by public id, as it always did. One whose id is no message's (another
  // list's cursor) pages by its time, as lib/domain/cursor.ts does a cursor whose row is gone: from
  // the end of its millisecond, at worst a repeat of that millisecond's messages.
  const below = position && (storedMessageId(position.id) ?? storedIdAt(position.t + 1));
  const prisma = await readPrisma();
  const rows = await prisma.message.findMany({
    where: below ? { AND: [where, { id: { lt: below } }] } : where,
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return {
    data,
    nextCursor: rows.length > limit && last ? encodeCursor(last, 'msg') : null,
  };
}

/**
 * The one message the list asks for by its id or its idempotency key: its public id; null when what
 * was asked names no message (an unknown key, an id that is no message id: a 'dlv_' id, a typo);
 * undefined when the list asks for no one message.
 */
async function onlyMessage({ appId, id, idempotencyKey }: ListMessagesOptions): Promise<string | null | undefined> {
  const asked = idempotencyKey === undefined ? id : await messageIdForKey(appId, idempotencyKey, id);
  if (asked === undefined) return undefined;
  return storedMessageId(asked) === null ? null : asked;
}

/**
 * The list's filters on the message itself, as a Prisma condition. The time range is the time its id
 * begins with (when its producer wrote it; created_at is when that producer's transaction began): a
 * range of the app's part of messages_pkey, where a range of created_at would have to read past its
 * end for the messages of transactions that began before it. Its bounds are uuids, a millisecond's 12
 * hex digits and zeros (storedIdAt): a uuid compares byte by byte, so they order as the times do.
 */
function messageWhere(
  { appId, from, to }: ListMessagesOptions,
  only: string | null | undefined,
): Prisma.MessageWhereInput {
  return {
    appId,
    id: only === undefined ? undefined : only === null ? { in: [] } : storedMessageId(only)!,
    AND: [
      {
        id: {
          gte: from && storedIdAt(from.getTime()),
          lt: to && storedIdAt(to.getTime()),
        },
      },
    ],
  };
}
