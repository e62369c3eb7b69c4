import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import type { ListMessagesQuery } from '../../contract/schemas/messages';
import { payloadCondition } from '../search/payload-condition';
import { idTimeMs } from '../search/walk-back';
import { messageIdForKey } from './message-id-for-key';
import { withOutcomes } from './with-outcomes';
import { searchMessages } from './search-messages';

type ListMessagesOptions = Omit<ListMessagesQuery, 'limit'> & { appId: string; limit: number };

/**
 * Newest first, each with its deliveries counted by state. With no index but the ones a producer's
 * message row needs: id and idempotency key are unique lookups (a key through
 * hookline.idempotency_keys), the time range rides (app_id, created_at). The event type, a payload
 * search (search, payloadPath) and a condition on the messages' deliveries (status code, error class,
 * attempts) walk back through time under a budget instead: searchMessages.
 */
export async function listMessages(options: ListMessagesOptions) {
  const { appId, limit, cursor } = options;
  await requireApp(appId);
  const where = await messageWhere(options);
  // The event type first: it spares the messages of other types the payload's and the deliveries' checks.
  const conditions = [eventTypeCondition(options), payloadCondition(options), deliveryCondition(options)].filter(
    (c) => c !== null,
  );
  if (conditions.length > 0) {
    // One message asked for (id, idempotency key): a walk over its millisecond alone; none for a key
    // that names no message ('').
    const only = typeof where.id === 'string' ? idTimeMs(where.id) : NaN;
    const range =
      where.id === ''
        ? { from: new Date(0), to: new Date(0) }
        : Number.isNaN(only)
          ? { from: options.from, to: options.to }
          : { from: new Date(only), to: new Date(only + 1) };
    return searchMessages({ appId, where, condition: Prisma.join(conditions, ' AND '), limit, cursor, ...range });
  }
  const prisma = await readPrisma();
  const page = await findPage({ where, cursor, limit }, (query) => prisma.message.findMany(query));
  return { ...(await withOutcomes(appId, page.data)), nextCursor: page.nextCursor, searchedBackTo: null };
}

/** The list's filters on the message itself, as a Prisma condition. */
async function messageWhere({ appId, ...filter }: ListMessagesOptions): Promise<Prisma.MessageWhereInput> {
  return {
    appId,
    id:
      filter.idempotencyKey === undefined ? filter.id : await messageIdForKey(appId, filter.idempotencyKey, filter.id),
    createdAt: { gte: filter.from, lt: filter.to },
  };
}

/**
 * The event type as SQL on `m`, or null when none is asked for. No index serves it (migration
 * 20261201100000_messages_without_event_type_index: the producers paid for one on every message, for
 * this filter alone), so it walks: a common type fills a page from the first slice.
 */
function eventTypeCondition(filter: ListMessagesOptions): Prisma.Sql | null {
  return filter.eventType === undefined ? null : Prisma.sql`m.event_type = ${filter.eventType}`;
}

/**
 * The list's conditions on a message's deliveries, as SQL on `m` (hookline.messages AS m), or null when
 * it has none: one of its deliveries has that last status code, error class, at least that many
 * attempts. Deliveries have no index on message_id (migration
 * 20261201090000_deliveries_by_message_through_id): each message's deliveries are read in its range of
 * deliveries_pkey, a few entries, but a message at a time, so the filter walks back through time
 * under the search budget (walk-back.ts) rather than check every message of the app in one statement.
 * OFFSET 0 keeps the EXISTS a loop over the slice's messages: turned into a join, the planner priced
 * each message's range (known only per row) at 0.5 % of a partition and hashed all of its deliveries
 * (1.7 s a page at bench:dashboard's 2.5 M, against 32 ms for the index probes it replaced).
 */
function deliveryCondition(filter: ListMessagesOptions): Prisma.Sql | null {
  const conditions: Prisma.Sql[] = [];
  if (filter.statusCode !== undefined) conditions.push(Prisma.sql`d.last_status_code = ${filter.statusCode}`);
  if (filter.errorClass !== undefined) conditions.push(Prisma.sql`d.last_error_class = ${filter.errorClass}`);
  if (filter.minAttempts !== undefined) conditions.push(Prisma.sql`d.attempt_count >= ${filter.minAttempts}`);
  if (conditions.length === 0) return null;
  return Prisma.sql`EXISTS (SELECT 1 FROM hookline.deliveries AS d
                             WHERE d.message_id = m.id
                               AND d.id >= hookline.delivery_ids_from(m.id)
                               AND d.id < hookline.delivery_ids_before(m.id)
                               AND ${Prisma.join(conditions, ' AND ')}
                            OFFSET 0)`;
}
