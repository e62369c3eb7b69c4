// A payload search walks one app's messages back through time, newest first, in slices, until a page
// is full, the range is searched, or its time budget is spent; then it answers where it got to.
//
// Why a walk and no index: a GIN index on payloads (jsonb_path_ops, or pg_trgm for substrings) is
// written on every producer's insert: the hot path the README's producer numbers come from. Here a
// search pays instead, and only while someone searches.
//
// Why it is cheap: ids begin with 12 hex digits of milliseconds and are the partition key (migration
// 20261126130000_time_partitions), so a slice `id >= lower AND id < upper` reads only the partitions
// of its time, in id order, through their primary keys newest first. Slices skip the gaps retention
// left, and end at the oldest partition.
//
// Positions are public ids ('msg_' or 'dlv_' and hex digits: lib/database/ids.ts), as cursors carry
// them, or the first 12 digits alone for the start of a millisecond; a statement gets their uuid, the
// digits and zeros after them (storedBound). The ids are stored as uuid (migration
// 20261208090000_ids_as_uuid), which sorts as the public ids' digits do.
//
// The slice length adapts: it starts at 15 minutes and is scaled by how long the last slice took
// against a fifth of the budget (at most 4x up, 4x down), so an empty week costs a few queries and a
// dense hour is cut small; the cursor carries it to the next page. A slice stops after CHUNK matches,
// which the caller filters further (the list's other filters, in Prisma) before the walk goes on from
// the last one.
//
// The budget holds: each slice after the first is cut to what the last one's pace says fits in the
// budget left, and every slice runs under a statement_timeout of the budget left (the first of a page
// at least FIRST_QUERY_MS). One that hits it is given up (its rows are not read; the page answers
// where the slice before ended, and the next page goes on with slices a quarter as long). A first
// slice already down to one minute runs without a timeout, so the search always gets somewhere.
// Before, a slice was sized from the last one alone: after an empty stretch it could be days long;
// over 30 days of 10 M messages, on a loaded machine, a search matching nothing answered in 3.2-3.8 s
// against a 1.5 s budget.
import { Prisma } from '../../generated/prisma/client';
import { idTimeMs, millisecondHex, publicId, storedBound, storedIdAt, type IdKind } from '../../database/ids';
import { readPrisma } from '../../database/read-replica';
import type { SearchPosition } from './search-cursor';

const MINUTE = 60_000;
const FIRST_SLICE_MS = 15 * MINUTE;
const MIN_SLICE_MS = MINUTE;
const MAX_SLICE_MS = 366 * 24 * 60 * MINUTE;
/** Less budget left than this: no slice query is worth starting. */
const MIN_QUERY_MS = 10;
/** The first slice of a page may take this long even when the budget is smaller. */
const FIRST_QUERY_MS = 100;
/** Matches per slice query, handed to the caller at a time. */
export const CHUNK = 500;

/** The position before every id of millisecond `ms`: the prefix and the millisecond's 12 hex digits. */
export const messageIdAt = (ms: number, prefix: IdKind = 'msg') => `${prefix}_${millisecondHex(ms)}`;

/** What a walk reads: messages (`m`, hookline.messages AS m), or deliveries (`d`), by their own ids. */
export type WalkedTable = 'messages' | 'deliveries';

const WALKED: Record<WalkedTable, { relation: Prisma.Sql; alias: Prisma.Sql; prefix: IdKind }> = {
  messages: { relation: Prisma.sql`hookline.messages AS m`, alias: Prisma.raw('m'), prefix: 'msg' },
  deliveries: { relation: Prisma.sql`hookline.deliveries AS d`, alias: Prisma.raw('d'), prefix: 'dlv' },
};

export interface WalkBackOptions {
  appId: string;
  /** Messages (the default), or deliveries: a list filtered on what no index serves (list-deliveries.ts). */
  table?: WalkedTable;
  /** The condition on `m` (hookline.messages AS m; payloadCondition()), or on `d` when walking deliveries. */
  condition: Prisma.Sql;
  /**
   * Hand `take` whole milliseconds only (the ids of a millisecond are never split between two calls,
   * and the walk never stops inside one), for a caller that lists what the ids name, and must see every
   * id that names it at once (searchMessagesByDeliveries).
   */
  wholeMilliseconds?: boolean;
  /** Messages with ids at or after this instant only (the range's start); none: the oldest kept. */
  fromMs?: number;
  /** Messages with ids before this instant only; none: now (the database's clock) and a minute. */
  toMs?: number;
  /** Where an earlier page stopped (its cursor). */
  start?: SearchPosition;
  budgetMs: number;
  /**
   * Matching ids (of messages, or of deliveries; public ones) of one slice, newest first. The caller
   * keeps the rows its page wants and answers where the next page must start (a public id, or
   * messageIdAt) once its page is full, or null to go on.
   */
  take: (messageIds: string[]) => Promise<SearchPosition | null>;
}

export interface WalkBackResult {
  /** Where the next page starts; null once the whole range is searched. */
  next: SearchPosition | null;
  /** How far back this page searched: once the range is searched, its start or the app's oldest message. */
  searchedBackTo: Date | null;
}

interface Partition {
  lower_at: Date | null;
  upper_at: Date | null;
}

export async function walkBack(options: WalkBackOptions): Promise<WalkBackResult> {
  const startedAt = performance.now();
  const prisma = await readPrisma();
  const table = options.table ?? 'messages';
  const { relation, alias, prefix } = WALKED[table];
  const idAt = (ms: number) => messageIdAt(ms, prefix);
  // The app's oldest message ends the walk (a delivery's id is never earlier than its message's): one
  // probe of the app's part of messages_pkey (app_id, id) per partition, and no walk through years of a
  // legacy partition's MINVALUE. Deliveries are partitioned as messages are.
  const [partitions, [clock], [oldestMessage]] = await Promise.all([
    prisma.$queryRaw<Partition[]>`
      SELECT lower_at, upper_at FROM hookline.time_partitions(${table}) WHERE NOT detach_pending ORDER BY lower_at NULLS FIRST`,
    prisma.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`,
    prisma.$queryRaw<{ id: string }[]>`
      SELECT id FROM hookline.messages WHERE app_id = ${options.appId} ORDER BY id LIMIT 1`,
  ]);
  if (!oldestMessage)
    return { next: null, searchedBackTo: options.fromMs === undefined ? null : new Date(options.fromMs) };
  const floorMs = Math.max(options.fromMs ?? 0, partitions[0]?.lower_at?.getTime() ?? 0, idTimeMs(oldestMessage.id));
  const floorId = idAt(floorMs);
  const exhausted = (): WalkBackResult => ({ next: null, searchedBackTo: new Date(floorMs) });

  // The walk's position: ids below `upper` are still to search (and `upper` itself when inclusive).
  let upper = options.start?.before ?? idAt(options.toMs ?? clock!.now.getTime() + MINUTE);
  let inclusive = options.start?.delivery !== undefined;
  // Carried from the last page: a walk that had grown its slices over an empty week goes on with them.
  let sliceMs = Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, options.start?.sliceMs ?? FIRST_SLICE_MS));
  const targetMs = Math.max(options.budgetMs / 5, 20);

  // Query time per millisecond of history in the last slice; unknown before the first.
  let msPerSpanMs: number | null = null;
  const here = (): WalkBackResult => ({
    next: { before: upper, sliceMs: Math.round(sliceMs) },
    searchedBackTo: new Date(idTimeMs(upper)),
  });

  for (let slice = 0; ; slice++) {
    if (upper <= floorId && !(inclusive && upper === floorId)) return exhausted();
    const leftMs = options.budgetMs - (performance.now() - startedAt);
    // The first slice always runs; later ones only in the budget left, sized to fit it (4/5 of it,
    // for the round trips around the query).
    if (slice > 0 && leftMs < MIN_QUERY_MS) return here();
    if (slice > 0 && msPerSpanMs !== null) {
      sliceMs = Math.max(MIN_SLICE_MS, Math.min(sliceMs, (0.8 * leftMs) / msPerSpanMs));
    }
    // The newest partition holding ids below the position; none: retention dropped everything older.
    const partition = partitions.findLast((p) => p.lower_at === null || idAt(p.lower_at.getTime()) < upper);
    if (!partition) return exhausted();
    // A slice may span several partitions (one-minute periods: a 15-minute slice reads 15 of them,
    // in id order, each through its primary key); it starts below the gap retention left above it.
    const positionMs = Math.min(idTimeMs(upper), partition.upper_at?.getTime() ?? Infinity);
    const lowerMs = Math.max(floorMs, positionMs - sliceMs);
    const lower = idAt(lowerMs);

    const sliceStarted = performance.now();
    const query = (db: Pick<typeof prisma, '$queryRaw'>) => db.$queryRaw<{ id: string }[]>`
      SELECT ${alias}.id FROM ${relation}
       WHERE ${alias}.app_id = ${options.appId}
         AND ${alias}.id >= ${storedBound(lower)}::uuid
         AND ${inclusive ? Prisma.sql`${alias}.id <= ${storedBound(upper)}::uuid` : Prisma.sql`${alias}.id < ${storedBound(upper)}::uuid`}
         AND ${options.condition}
       ORDER BY ${alias}.id DESC
       LIMIT ${CHUNK}`;
    let rows: { id: string }[];
    // Bounded by the budget left (the first slice by at least FIRST_QUERY_MS), except a first slice
    // already down to a minute: that one runs whatever it takes, so a page always moves the search.
    const timeoutMs =
      slice === 0 && sliceMs <= MIN_SLICE_MS ? null : Math.ceil(Math.max(leftMs, slice === 0 ? FIRST_QUERY_MS : 1));
    if (timeoutMs === null) rows = await query(prisma);
    else {
      try {
        rows = await prisma.$transaction(async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${timeoutMs}`);
          return query(tx);
        });
      } catch (error) {
        if (!isStatementTimeout(error)) throw error;
        sliceMs = Math.max(MIN_SLICE_MS, sliceMs / 4);
        return here();
      }
    }
    const tookMs = performance.now() - sliceStarted;
    const full = rows.length === CHUNK;
    // A full slice stopped at its last match: its pace is over the history it read, down to that row.
    const spanMs = Math.max(1, idTimeMs(upper) - (full ? idTimeMs(rows.at(-1)!.id) : lowerMs));
    msPerSpanMs = tookMs / spanMs;
    // A slice cut short by the chunk says nothing about how long the whole slice would take: never grow then.
    const factor = Math.min(full ? 1 : 4, Math.max(0.25, targetMs / Math.max(tookMs, 0.5)));
    sliceMs = Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, sliceMs * factor));

    // The walk goes on below the last row of a full chunk, or below the slice. With wholeMilliseconds,
    // a full chunk is cut back to its whole milliseconds: the rows of its last one come again, all of
    // them, with the next chunk. A chunk that is all one millisecond is read to that millisecond's end
    // instead, however many rows it holds, so that no call of take, and no page, ends inside one.
    let ids = rows.map((row) => publicId(prefix, row.id));
    let next = full ? ids.at(-1)! : lower;
    if (full && options.wholeMilliseconds) {
      const lastMs = idTimeMs(next);
      if (idTimeMs(ids[0]!) !== lastMs) {
        ids = ids.filter((id) => idTimeMs(id) !== lastMs);
        next = idAt(lastMs + 1);
      } else {
        const rest = await prisma.$queryRaw<{ id: string }[]>`
          SELECT ${alias}.id FROM ${relation}
           WHERE ${alias}.app_id = ${options.appId}
             AND ${alias}.id >= ${storedIdAt(lastMs)}::uuid AND ${alias}.id < ${storedBound(next)}::uuid
             AND ${options.condition}
           ORDER BY ${alias}.id DESC`;
        ids.push(...rest.map((row) => publicId(prefix, row.id)));
        next = idAt(lastMs);
      }
    }
    if (ids.length > 0) {
      const stop = await options.take(ids);
      if (stop)
        return { next: { ...stop, sliceMs: Math.round(sliceMs) }, searchedBackTo: new Date(idTimeMs(stop.before)) };
    }
    upper = next;
    inclusive = false;
    if (performance.now() - startedAt >= options.budgetMs && upper > floorId) return here();
  }
}

/** PostgreSQL's query_canceled (57014), as Prisma's driver adapter passes it on. */
export function isStatementTimeout(error: unknown): boolean {
  const text = `${(error as { code?: unknown })?.code ?? ''} ${JSON.stringify((error as { meta?: unknown })?.meta ?? {})} ${(error as Error)?.message ?? ''}`;
  return text.includes('57014') || /statement timeout/i.test(text);
}
