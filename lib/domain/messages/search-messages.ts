import { Prisma, type Message } from '../../generated/prisma/client';
import { idTimeMs, publicMessageId, storedIds } from '../../database/ids';
import { readPrisma } from '../../database/read-replica';
import { getApiSettings } from '../../runtime/api-settings';
import { decodeSearchCursor, encodeSearchCursor } from '../search/search-cursor';
import { messageIdAt, walkBack } from '../search/walk-back';
import { withOutcomes } from './with-outcomes';

/**
 * One page of a payload search over messages, newest first by id (its time): the messages matching
 * `condition` (walkBack finds them slice by slice) and `where` (the list's other filters, checked on
 * those ids). Answers the page, how far back it searched, and the cursor to go on.
 */
export async function searchMessages({
  appId,
  where,
  condition,
  limit,
  cursor,
  from,
  to,
}: {
  appId: string;
  where: Prisma.MessageWhereInput;
  condition: Prisma.Sql;
  limit: number;
  cursor?: string;
  from?: Date;
  to?: Date;
}) {
  const start = decodeSearchCursor(cursor);
  const prisma = await readPrisma();
  const found: Message[] = [];
  const walk = await walkBack({
    appId,
    condition,
    fromMs: from?.getTime(),
    toMs: to?.getTime(),
    // A delivery search's cursor names a message whose later deliveries are still to come: here the
    // message itself was listed, so only what is below it is left.
    start: start && { before: start.before, sliceMs: start.sliceMs },
    budgetMs: getApiSettings().searchBudgetMs,
    take: async (ids) => {
      const rows = await prisma.message.findMany({
        where: { AND: [where, { id: { in: storedIds('msg', ids) } }] },
        orderBy: { id: 'desc' },
        take: limit - found.length,
      });
      found.push(...rows);
      return found.length === limit ? { before: publicMessageId(found.at(-1)!.id) } : null;
    },
  });
  return {
    ...(await withOutcomes(appId, found)),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}

/**
 * One page of messages with a delivery meeting `deliveryConditions` (SQL on `d`: status code, error
 * class, attempts, and the event type), newest first: the app's deliveries walked back by their own ids
 * (walk-back.ts, through deliveries_pkey), each matching delivery naming its message. Checking each
 * message's deliveries instead (an EXISTS per message, in its range of deliveries_pkey) cost 14 us a
 * message and ~22 ms of planning a slice over 16 time partitions: 161-205 ms p50 a page at
 * bench:dashboard's 2.5 M, against the 200 ms target.
 * A delivery's id starts with its message's millisecond, so a page holds whole milliseconds: the walk
 * hands them over whole (wholeMilliseconds), and a page that would pass `limit` ends before the
 * millisecond that passes it, which the next page starts with. A message whose matching deliveries a
 * page boundary split would otherwise be listed twice. A page passes `limit` only when one millisecond
 * alone names more messages. Deliveries written before time partitions (an upgraded installation's
 * legacy partition) carry their own time: their messages are found at that time.
 */
export async function searchMessagesByDeliveries({
  appId,
  where,
  deliveryConditions,
  limit,
  cursor,
  from,
  to,
}: {
  appId: string;
  where: Prisma.MessageWhereInput;
  deliveryConditions: Prisma.Sql[];
  limit: number;
  cursor?: string;
  from?: Date;
  to?: Date;
}) {
  const start = decodeSearchCursor(cursor, 'deliveries');
  const prisma = await readPrisma();
  // Each message named so far (its public id), with the millisecond of the delivery that named it first.
  const named = new Map<string, number>();
  const walk = await walkBack({
    appId,
    table: 'deliveries',
    condition: Prisma.join(deliveryConditions, ' AND '),
    wholeMilliseconds: true,
    fromMs: from?.getTime(),
    toMs: to?.getTime(),
    start,
    budgetMs: getApiSettings().searchBudgetMs,
    take: async (deliveryIds) => {
      const rows = await prisma.delivery.findMany({
        where: { appId, id: { in: storedIds('dlv', deliveryIds) } },
        select: { id: true, messageId: true },
        orderBy: { id: 'desc' },
      });
      for (const row of rows) {
        const messageId = publicMessageId(row.messageId);
        if (!named.has(messageId)) named.set(messageId, idTimeMs(row.id));
      }
      if (named.size <= limit) return null;
      // More than a page: keep whole milliseconds, newest first, while they fit (the first one always).
      const perMs = new Map<number, string[]>();
      for (const [messageId, ms] of named) perMs.set(ms, [...(perMs.get(ms) ?? []), messageId]);
      let kept = 0;
      let oldestKept = Infinity;
      for (const [ms, messageIds] of [...perMs].sort(([a], [b]) => b - a)) {
        if (kept > 0 && kept + messageIds.length > limit) break;
        kept += messageIds.length;
        oldestKept = ms;
      }
      for (const [messageId, ms] of named) if (ms < oldestKept) named.delete(messageId);
      return { before: messageIdAt(oldestKept, 'dlv') };
    },
  });
  const found = await prisma.message.findMany({
    where: { AND: [where, { id: { in: storedIds('msg', [...named.keys()]) } }] },
    orderBy: { id: 'desc' },
  });
  return {
    ...(await withOutcomes(appId, found)),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}
