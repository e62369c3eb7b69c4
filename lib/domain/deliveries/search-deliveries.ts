import { Prisma } from '../../generated/prisma/client';
import { publicDeliveryId, publicMessageId, storedDeliveryId, storedIds, storedMessageId } from '../../database/ids';
import { readPrisma } from '../../database/read-replica';
import { getApiSettings } from '../../runtime/api-settings';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import { decodeSearchCursor, encodeSearchCursor } from '../search/search-cursor';
import { conditionsOfFilter, deliveryConditionsSql } from '../search/delivery-conditions';
import { walkBack } from '../search/walk-back';
import { deliveriesOfMessages } from './deliveries-of-messages';
import { deliveryInclude, deliveryViews, type DeliveryRow } from './delivery-view';
import { deliveryWhere } from './delivery-where';

/**
 * One page of a payload search over deliveries: the deliveries of the messages matching `condition`,
 * newest message first (a delivery is listed at its message's time, which its id carries), then by id.
 * `from` and `to` bound that time, the one a search can walk by: a backfill's delivery, made today
 * for a message of last week, is found with last week. The other filters are checked on the matching
 * messages' deliveries, each message's within its millisecond of deliveries_pkey (deliveriesOfMessages).
 */
export async function searchDeliveries({
  appId,
  filter: { from, to, ...filter },
  condition,
  limit,
  cursor,
}: {
  appId: string;
  filter: DeliveryFilter;
  condition: Prisma.Sql;
  limit: number;
  cursor?: string;
}) {
  const start = decodeSearchCursor(cursor);
  const prisma = await readPrisma();
  const where = await deliveryWhere(appId, filter, prisma);
  const found: DeliveryRow[] = [];
  const walk = await walkBack({
    appId,
    condition,
    fromMs: from?.getTime(),
    toMs: to?.getTime(),
    start,
    budgetMs: getApiSettings().searchBudgetMs,
    take: async (messageIds) => {
      const and: Prisma.DeliveryWhereInput[] = [where, await deliveriesOfMessages(messageIds, prisma)];
      // The message the last page stopped inside: its deliveries after the last one listed (whole
      // public ids: decodeSearchCursor checks them).
      if (start?.delivery)
        and.push({
          OR: [
            { messageId: { not: storedMessageId(start.before)! } },
            { id: { lt: storedDeliveryId(start.delivery)! } },
          ],
        });
      const rows = await prisma.delivery.findMany({
        where: { AND: and },
        include: deliveryInclude,
        orderBy: [{ messageId: 'desc' }, { id: 'desc' }],
        take: limit - found.length,
      });
      found.push(...rows);
      const last = found.at(-1);
      return found.length === limit && last
        ? { before: publicMessageId(last.messageId), delivery: publicDeliveryId(last.id) }
        : null;
    },
  });
  return {
    data: await deliveryViews(prisma, found),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}

// A message's id is made in its producer's transaction, its created_at at that transaction's start, and
// its deliveries' ids carry the message's time: a delivery list's range (of created_at) is walked to
// this much after its end, and created_at decides.
const TRANSACTION_MARGIN_MS = 5 * 60_000;

/**
 * One page of a delivery list filtered on what no index serves (event type, status code, error class,
 * attempts; isDeliverySearch): the app's deliveries walked back through time by their own ids, newest
 * first, in slices under the search budget, each slice through deliveries_pkey with the filter checked
 * on its rows. `from` and `to` bound the time a delivery's id carries (its message's). A filter that
 * matches often fills a page from the first slice; one that matches little answers within the budget
 * and says how far back it looked.
 */
export async function walkDeliveries({
  appId,
  filter,
  limit,
  cursor,
}: {
  appId: string;
  filter: DeliveryFilter;
  limit: number;
  cursor?: string;
}) {
  const start = decodeSearchCursor(cursor, 'deliveries');
  const prisma = await readPrisma();
  const conditions = deliveryConditionsSql(conditionsOfFilter(filter));
  const found: DeliveryRow[] = [];
  const walk = await walkBack({
    appId,
    table: 'deliveries',
    condition: conditions.length > 0 ? Prisma.join(conditions, ' AND ') : Prisma.sql`true`,
    fromMs: filter.from?.getTime(),
    // A delivery's id carries its message's time, which can be before its created_at (the producer's
    // transaction, or a backfill's delivery made today for last week's message): the range's end is
    // searched from a margin after it, and created_at decides.
    toMs: filter.to === undefined ? undefined : filter.to.getTime() + TRANSACTION_MARGIN_MS,
    start,
    budgetMs: getApiSettings().searchBudgetMs,
    take: async (deliveryIds) => {
      // Every id of the chunk matches the filter; `from` and `to` also bound created_at, as in the list
      // that does not walk. The page keeps what it has room for, newest first, and ends on the last row
      // it listed: a row of the chunk gone meanwhile, or outside the range, is skipped, not its followers.
      const rows = await prisma.delivery.findMany({
        where: { appId, id: { in: storedIds('dlv', deliveryIds) }, createdAt: { gte: filter.from, lt: filter.to } },
        include: deliveryInclude,
        orderBy: { id: 'desc' },
      });
      found.push(...rows.slice(0, limit - found.length));
      const last = found.at(-1);
      return found.length === limit && last ? { before: publicDeliveryId(last.id) } : null;
    },
  });
  return {
    data: await deliveryViews(prisma, found),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}
