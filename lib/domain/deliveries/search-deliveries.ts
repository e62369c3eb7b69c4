import type { Prisma } from '../../generated/prisma/client';
import { readPrisma } from '../../database/read-replica';
import { getApiSettings } from '../../runtime/api-settings';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import { decodeSearchCursor, encodeSearchCursor } from '../search/search-cursor';
import { walkBack } from '../search/walk-back';
import { deliveriesOfMessages } from './deliveries-of-messages';
import { deliveryInclude, deliveryView, type DeliveryRow } from './delivery-view';
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
      // The message the last page stopped inside: its deliveries after the last one listed.
      if (start?.delivery) and.push({ OR: [{ messageId: { not: start.before } }, { id: { lt: start.delivery } }] });
      const rows = await prisma.delivery.findMany({
        where: { AND: and },
        include: deliveryInclude,
        orderBy: [{ messageId: 'desc' }, { id: 'desc' }],
        take: limit - found.length,
      });
      found.push(...rows);
      const last = found.at(-1);
      return found.length === limit && last ? { before: last.messageId, delivery: last.id } : null;
    },
  });
  return {
    data: found.map(deliveryView),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}
