import type { Message, Prisma } from '../../generated/prisma/client';
import { readPrisma } from '../../database/read-replica';
import { getApiSettings } from '../../runtime/api-settings';
import { decodeSearchCursor, encodeSearchCursor } from '../search/search-cursor';
import { walkBack } from '../search/walk-back';
import { withOutcomes } from './with-outcomes';

// A message's id is made in its producer's transaction, its created_at at that transaction's start:
// the id can be later. A range's end is searched from this much after it, and created_at decides.
const TRANSACTION_MARGIN_MS = 5 * 60_000;

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
    toMs: to === undefined ? undefined : to.getTime() + TRANSACTION_MARGIN_MS,
    // A delivery search's cursor names a message whose later deliveries are still to come: here the
    // message itself was listed, so only what is below it is left.
    start: start && { before: start.before, sliceMs: start.sliceMs },
    budgetMs: getApiSettings().searchBudgetMs,
    take: async (ids) => {
      const rows = await prisma.message.findMany({
        where: { AND: [where, { id: { in: ids } }] },
        orderBy: { id: 'desc' },
        take: limit - found.length,
      });
      found.push(...rows);
      return found.length === limit ? { before: found.at(-1)!.id } : null;
    },
  });
  return {
    ...(await withOutcomes(appId, found)),
    nextCursor: walk.next ? encodeSearchCursor(walk.next) : null,
    searchedBackTo: walk.searchedBackTo,
  };
}
