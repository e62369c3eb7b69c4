import { getPrisma } from '../../database/db';
import { Prisma } from '../../generated/prisma/client';
import type { ReplayDeliveryFilter } from '../../contract/schemas/deliveries';
import { payloadCondition } from '../search/payload-condition';
import { deliveryWhere } from './delivery-where';
import { countReplayable, replayable } from './replay-deliveries';

// Ids per round trip of a payload search's count: one keyset page of the filter's rows, then one
// statement testing their messages' payloads. 5,000 keeps each statement's id list and join small.
const PAGE = 5_000;

/**
 * How many deliveries a replay by `filter` (its state already defaulted) would change now, among those
 * created up to `asOf`: the dry run's count and a job's total. With a payload search, the rows the
 * filter selects are tested with the list's own payload condition (lib/domain/search/payload-condition.ts),
 * so the count is the set the explorer shows, not the larger set without the search; `from` and `to`
 * then bound the message's time, as in the search (search-deliveries.ts). No index serves a
 * payload condition: the count reads every row the other keys select, page by page, which is why the
 * explorer's list walks back under a budget instead; a count (like the job) has to reach the end.
 */
export async function countReplayMatching({
  appId,
  filter,
  asOf,
}: {
  appId: string;
  filter: ReplayDeliveryFilter;
  asOf?: Date;
}): Promise<number> {
  const payload = payloadCondition(filter);
  const { from, to, ...others } = filter;
  const base = await deliveryWhere(appId, payload ? others : filter);
  const where = asOf ? { AND: [base, { createdAt: { lte: asOf } }] } : base;
  if (!payload) return countReplayable({ appId, where });
  const messageTime = Prisma.sql`${from ? Prisma.sql`AND m.created_at >= ${from}` : Prisma.empty}
        ${to ? Prisma.sql`AND m.created_at < ${to}` : Prisma.empty}`;

  const prisma = getPrisma();
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const page = await prisma.delivery.findMany({
      where: { AND: [replayable({ appId, where }), ...(after ? [{ id: { gt: after } }] : [])] },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: PAGE,
    });
    if (page.length === 0) return total;
    const ids = page.map((row) => row.id);
    const [row] = await prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count
        FROM hookline.deliveries AS d
        JOIN hookline.messages AS m ON m.id = d.message_id AND m.app_id = d.app_id
       WHERE d.id = ANY(${ids}::text[]) AND ${payload} ${messageTime}`;
    total += row?.count ?? 0;
    if (page.length < PAGE) return total;
    after = ids.at(-1);
  }
}
