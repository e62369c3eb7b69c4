import { Prisma } from '../../generated/prisma/client';
import type { PrismaClient } from '../../database/db';
import { storedDeliveryId } from '../../database/ids';
import { decodeCursor, encodeCursor } from '../cursor';
import type { DeliveryState } from './delivery-states';
import { deliveryInclude, type DeliveryRow } from './delivery-view';

/**
 * An app's deliveries newest first (by created_at, then id), in any of `states` (all without them),
 * created in [from, to). There is no index on (app_id, created_at) (migration
 * 20261205090000_deliveries_without_app_time_index: it cost every delivery a B-tree entry for this
 * list alone). Each endpoint of the app gives its newest rows through an index in time order, at most
 * a page each, and the page is the newest of those: one index descent per endpoint and source, ~12 ms
 * for 100 endpoints at the dashboard bench's 10 M deliveries. The sources:
 *   all: deliveries_endpoint_id_created_at_idx;
 *   waiting, retrying: deliveries_queue_idx (app_id, endpoint_id, created_at) of the claim queue, where
 *     every pending row is (its claimable_at is set);
 *   dead: deliveries_dead_idx (app_id, endpoint_id, created_at) of failed rows out of the queue.
 * Succeeded, delivering and cancelled rows have no index of their own: read through an endpoint's
 * whole list, an endpoint that seldom has them (one failing for weeks) would be read to its start for
 * a page. A list of them walks back through time instead (walkDeliveries), which fills a page at once
 * where they are common; `listable` says which lists are served here.
 * Deliveries of an endpoint deleted since are not listed (deleting one deletes its deliveries).
 * The cursor is findPage's (lib/domain/cursor.ts), with the same rule when its row is gone (or its id
 * is no delivery's), and the same public id.
 *
 * Each endpoint's part is read in its index's order and stops at a page: ordered by created_at alone,
 * with the rows tied at the page's edge (WITH TIES), so that the final order by (created_at, id) sees
 * every row a cursor could stop between. Sorts are off for the statement: estimating a few queued
 * rows per endpoint, PostgreSQL 15 read each endpoint's whole part of a partial index and sorted it
 * (17,647 buffers and 98-136 ms for the failed ones of an app with 10,000 retrying on one endpoint,
 * growing with its queue; 6,563 buffers and 4 ms read in order). JIT off with them: priced with sorts
 * off, a statement of milliseconds passed jit_above_cost and compiled for seconds (read-live-queue.ts
 * says the same).
 */
export async function listAppDeliveries(
  prisma: PrismaClient,
  {
    appId,
    states,
    from,
    to,
    limit,
    cursor,
  }: {
    appId: string;
    states?: readonly DeliveryState[];
    from?: Date;
    to?: Date;
    limit: number;
    cursor?: string;
  },
): Promise<{ data: DeliveryRow[]; nextCursor: string | null }> {
  const position = decodeCursor(cursor);
  const positionId = position && storedDeliveryId(position.id);
  // Where the last page ended: its last row's own created_at (microseconds, which a cursor's
  // milliseconds cannot carry), or, once that row is gone, the end of its millisecond.
  let before = Prisma.empty;
  if (position) {
    const [row] = positionId
      ? await prisma.$queryRaw<{ exact: string }[]>`
          SELECT created_at::text AS exact FROM hookline.deliveries WHERE id = ${positionId}::uuid AND app_id = ${appId}`
      : [];
    before = row
      ? Prisma.sql`AND d.created_at <= ${row.exact}::timestamptz AND (d.created_at, d.id) < (${row.exact}::timestamptz, ${positionId}::uuid)`
      : Prisma.sql`AND d.created_at < ${new Date(position.t + 1)}`;
  }
  const take = limit + 1;
  const [, ids] = await prisma.$transaction([
    prisma.$queryRaw(APP_LIST_SETTINGS),
    prisma.$queryRaw<{ id: string }[]>(appDeliveriesStatement({ appId, states, from, to, before, take })),
  ]);
  const found = await prisma.delivery.findMany({
    where: { appId, id: { in: ids.map((row) => row.id) } },
    include: deliveryInclude,
  });
  const byId = new Map(found.map((row) => [row.id, row]));
  // In the page's order; a row deleted between the two reads is left out.
  const rows = ids.map((row) => byId.get(row.id)).filter((row) => row !== undefined);
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, nextCursor: ids.length > limit && last ? encodeCursor(last, 'dlv') : null };
}

/** What the list's statement runs under (see listAppDeliveries): sorts and JIT off, for its transaction. */
export const APP_LIST_SETTINGS = Prisma.sql`SELECT set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`;

/** The ids of the page and the row after it (`take`), newest first; `before` is the cursor's condition on `d`. */
export function appDeliveriesStatement({
  appId,
  states,
  from,
  to,
  before = Prisma.empty,
  take,
}: {
  appId: string;
  states?: readonly DeliveryState[];
  from?: Date;
  to?: Date;
  before?: Prisma.Sql;
  take: number;
}): Prisma.Sql {
  const range = Prisma.sql`${from ? Prisma.sql`AND d.created_at >= ${from}` : Prisma.empty}
    ${to ? Prisma.sql`AND d.created_at < ${to}` : Prisma.empty}`;
  const parts = sources(states).map(
    (source) => Prisma.sql`
      SELECT d.id, d.created_at
        FROM hookline.endpoints AS e
       CROSS JOIN LATERAL (
         SELECT d.id, d.created_at FROM hookline.deliveries AS d
          WHERE d.app_id = e.app_id AND d.endpoint_id = e.id AND ${source} ${range} ${before}
          ORDER BY d.created_at DESC
          FETCH FIRST ${take} ROWS WITH TIES) AS d
       WHERE e.app_id = ${appId}`,
  );
  return Prisma.sql`
    SELECT u.id FROM (${Prisma.join(parts, ' UNION ALL ')}) AS u
     ORDER BY u.created_at DESC, u.id DESC
     LIMIT ${take}`;
}

/** The states listAppDeliveries serves; a list of others walks (list-deliveries.ts). */
export function listable(states: readonly DeliveryState[] | undefined): boolean {
  return states === undefined || states.every((state) => !UNLISTABLE.has(state));
}

const UNLISTABLE = new Set<DeliveryState>(['succeeded', 'delivering', 'cancelled']);

/** Per index the list reads, the condition on `d` that selects the asked states from it. */
function sources(states: readonly DeliveryState[] | undefined): Prisma.Sql[] {
  if (states === undefined) return [Prisma.sql`true`];
  const asked = new Set(states);
  const sql: Prisma.Sql[] = [];
  // The partial indexes' own predicates are written out, so the planner can use them.
  const queued =
    asked.has('waiting') && asked.has('retrying')
      ? Prisma.sql`d.state = 'pending'`
      : asked.has('waiting')
        ? Prisma.sql`d.state = 'pending' AND d.attempt_count = 0`
        : asked.has('retrying')
          ? Prisma.sql`d.state = 'pending' AND d.attempt_count > 0`
          : null;
  if (queued) sql.push(Prisma.sql`d.claimable_at IS NOT NULL AND ${queued}`);
  if (asked.has('dead'))
    sql.push(Prisma.sql`d.last_error_class IS NOT NULL AND d.claimable_at IS NULL AND d.state = 'dead'`);
  return sql;
}
