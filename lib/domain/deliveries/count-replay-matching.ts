import { getPrisma } from '../../database/db';
import { Prisma } from '../../generated/prisma/client';
import type { ReplayDeliveryFilter } from '../../contract/schemas/deliveries';
import { getApiSettings } from '../../runtime/api-settings';
import { payloadCondition } from '../search/payload-condition';
import { isStatementTimeout } from '../search/walk-back';
import { deliveryWhere } from './delivery-where';
import { countReplayable, replayable } from './replay-deliveries';

// Ids per round trip of a payload search's count: one keyset page of the filter's rows, then one
// statement testing their messages' payloads. 5,000 keeps each statement's id list and join small.
const PAGE = 5_000;
/** A payload search's count stops once it has found this many: "10,000+" says what a confirmation needs. */
export const REPLAY_COUNT_CAP = 10_000;
/** The first page of a count may take this long even when the budget is smaller, so a count gets somewhere. */
const FIRST_PAGE_MS = 100;

export interface ReplayCount {
  count: number;
  /**
   * true: counting stopped early (the cap, or the time budget, of a payload search), so at least
   * `count` deliveries match; false: exactly `count` do.
   */
  lowerBound: boolean;
}

/**
 * How many deliveries a replay by `filter` (its state already defaulted) would change now, among those
 * created up to `asOf`: the dry run's count and a job's total. Without a payload search it is one
 * indexed count, exact. With one, the rows the filter selects are tested with the list's own payload
 * condition (lib/domain/search/payload-condition.ts), so the count is the set the explorer shows, not
 * the larger set without the search; `from` and `to` then bound the message's time, as in the search
 * (search-deliveries.ts).
 *
 * No index serves a payload condition: counting reads every row the other keys select, which over a
 * large history took as long as it liked (the confirm dialog waited on it, and so did the POST that
 * starts the job). So it is bounded as the explorer's search is (walk-back.ts): it stops at `cap`
 * matches or when `budgetMs` (HOOKLINE_SEARCH_BUDGET_MS) is spent, every page running under a
 * statement_timeout of the budget left, and then answers a lower bound. The job is not bounded by
 * it: its batches (worker/sql/job-replay-batch.sql) go through the whole set whatever the count said.
 */
export async function countReplayMatching({
  appId,
  filter,
  asOf,
  budgetMs = getApiSettings().searchBudgetMs,
  cap = REPLAY_COUNT_CAP,
}: {
  appId: string;
  filter: ReplayDeliveryFilter;
  asOf?: Date;
  budgetMs?: number;
  cap?: number;
}): Promise<ReplayCount> {
  const payload = payloadCondition(filter);
  const { from, to, ...others } = filter;
  const base = await deliveryWhere(appId, payload ? others : filter);
  const where = asOf ? { AND: [base, { createdAt: { lte: asOf } }] } : base;
  if (!payload) return { count: await countReplayable({ appId, where }), lowerBound: false };
  const messageTime = Prisma.sql`${from ? Prisma.sql`AND m.created_at >= ${from}` : Prisma.empty}
        ${to ? Prisma.sql`AND m.created_at < ${to}` : Prisma.empty}`;

  const startedAt = performance.now();
  const prisma = getPrisma();
  let total = 0;
  let after: string | undefined;
  for (let page = 0; ; page++) {
    const leftMs = budgetMs - (performance.now() - startedAt);
    if (page > 0 && leftMs < 1) return { count: total, lowerBound: true };
    const timeoutMs = Math.ceil(Math.max(leftMs, page === 0 ? FIRST_PAGE_MS : 1));
    let counted: { rows: number; matches: number; last: string | undefined };
    try {
      counted = await prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${timeoutMs}`);
        const rows = await tx.delivery.findMany({
          where: { AND: [replayable({ appId, where }), ...(after ? [{ id: { gt: after } }] : [])] },
          select: { id: true },
          orderBy: { id: 'asc' },
          take: PAGE,
        });
        if (rows.length === 0) return { rows: 0, matches: 0, last: undefined };
        const ids = rows.map((row) => row.id);
        const [row] = await tx.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS count
            FROM hookline.deliveries AS d
            JOIN hookline.messages AS m ON m.id = d.message_id AND m.app_id = d.app_id
           WHERE d.id = ANY(${ids}::uuid[]) AND ${payload} ${messageTime}`;
        return { rows: rows.length, matches: row?.count ?? 0, last: ids.at(-1) };
      });
    } catch (error) {
      if (!isStatementTimeout(error)) throw error;
      // The page was given up: what the pages before it counted stands, as a lower bound.
      return { count: total, lowerBound: true };
    }
    total += counted.matches;
    if (counted.rows < PAGE) return { count: total, lowerBound: false };
    if (total >= cap) return { count: total, lowerBound: true };
    after = counted.last;
  }
}
