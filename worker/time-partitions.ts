// Time partitions of messages, deliveries and attempts (migration 20261126130000_time_partitions):
// the maintenance chore that adds periods ahead of now and drops the periods retention lets go.
// One worker does it, under an advisory lock; the DDL is in prisma/functions/time-partitions.sql.
//
// Invariants:
// - Every id has a partition: periods run contiguously from the legacy partition to an overflow
//   partition that ends at MAXVALUE. The overflow is normally empty (periods exist ahead of now);
//   ids land there only if no maintenance ran for the whole time ahead, and the next run turns it
//   into a period.
// - Nothing unfinished is dropped. A period goes only when it ended more than the retention ago and
//   none of its deliveries is pending or being delivered and none of its messages waits for fan-out.
//   A delivery still retrying keeps its whole period (messages, deliveries, attempts) until it
//   finishes: kept, never moved. The check runs again on the detached tables, so a replay that reset
//   one of its deliveries in the meantime puts the period back instead of losing the replay. A period
//   a transaction still open has written into is kept too (periodHasOpenWriters): its rows are not
//   visible to the check yet.
// - No producer waits: a period is created beside the parent and attached (SHARE UPDATE EXCLUSIVE,
//   which inserts do not conflict with), and dropped after DETACH ... CONCURRENTLY (PostgreSQL 14+),
//   which waits for transactions instead of blocking them. The one exception is turning a non-empty
//   overflow into a period, which must detach it under an ACCESS EXCLUSIVE lock (each lock waited for
//   at most 100 ms, and the step tried again: see withShortLocks).
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { withTryLock } from './advisory-lock';

const TIME_PARTITIONS_LOCK = 72_616_917_343;
// The prefix of a table's ids in its partition bounds (hookline.id_at): none for the tables keyed by
// uuid (migration 20261208090000_ids_as_uuid).
const TABLES = [
  { name: 'messages', prefix: '' },
  { name: 'deliveries', prefix: '' },
  { name: 'attempts', prefix: 'atmpt' },
] as const;
type TableName = (typeof TABLES)[number]['name'];

const MINUTE = 60_000;
const PERIOD_CHOICES = [MINUTE, 5 * MINUTE, 15 * MINUTE, 60 * MINUTE, 6 * 60 * MINUTE, 24 * 60 * MINUTE];

/**
 * A period's length for a retention: the longest of 1 min, 5 min, 15 min, 1 h, 6 h and 1 day that is at
 * most a sixth of it, so about six periods are live and a dropped one is a sixth of the data (a day for
 * the default 7 days; a minute for the soak's 10). No retention: a day.
 */
export function periodForRetention(retentionMs: number | null): number {
  if (retentionMs === null) return PERIOD_CHOICES.at(-1)!;
  return PERIOD_CHOICES.filter((period) => period <= retentionMs / 6).at(-1) ?? MINUTE;
}

/** How far ahead of now periods exist: three periods, and never less than 10 minutes. */
export function aheadForPeriod(periodMs: number): number {
  return Math.max(3 * periodMs, 10 * MINUTE);
}

export interface TimePartitionOptions {
  /** Periods that ended more than this ago are dropped when nothing in them is unfinished; null: never. */
  retentionMs: number | null;
  /** Default: periodForRetention(retentionMs). */
  periodMs?: number;
  /** Default: aheadForPeriod(periodMs). */
  aheadMs?: number;
  /** The clock; tests move it. */
  now?: () => number;
}

export interface TimePartitionResult {
  /** Periods created (named by their start), and whether the overflow had to become one. */
  created: string[];
  overflowTaken: boolean;
  /** Periods dropped by retention. */
  dropped: string[];
  /** Periods past retention kept because something in them is unfinished. */
  held: string[];
}

interface Partition {
  partition_name: string;
  lower_at: Date | null;
  upper_at: Date | null;
  detach_pending: boolean;
}

type Query = Pool['query'];

/** Adds periods ahead and drops expired ones; null when another worker holds the lock. */
export async function maintainTimePartitions(
  pool: Pool,
  options: TimePartitionOptions,
): Promise<TimePartitionResult | null> {
  const periodMs = options.periodMs ?? periodForRetention(options.retentionMs);
  const aheadMs = options.aheadMs ?? aheadForPeriod(periodMs);
  const now = options.now ?? Date.now;
  return withTryLock(pool, TIME_PARTITIONS_LOCK, 'session', async (query) => {
    const result: TimePartitionResult = { created: [], overflowTaken: false, dropped: [], held: [] };
    await finishInterruptedDetaches(query, result);
    await query('SELECT hookline.ensure_overflow_partitions()');
    await extendAhead(query, { periodMs, target: now() + aheadMs, now: now() }, result);
    if (options.retentionMs !== null) await dropExpired(query, now() - options.retentionMs, result);
    return result;
  });
}

export function logTimePartitions(log: Logger, result: TimePartitionResult | null): void {
  if (!result) return;
  if (result.overflowTaken) {
    log.warn('time partitions had run out: the overflow partition became a period (no maintenance ran for a while)', {
      created: result.created,
    });
  } else if (result.created.length > 0) {
    log.info('time partitions created ahead', { created: result.created });
  }
  if (result.dropped.length > 0) log.info('retention dropped time partitions', { dropped: result.dropped });
  if (result.held.length > 0) {
    log.info('retention kept time partitions that still hold unfinished deliveries', { held: result.held });
  }
}

async function partitionsOf(query: Query, table: TableName): Promise<Partition[]> {
  const { rows } = await query<Partition>('SELECT * FROM hookline.time_partitions($1)', [table]);
  return rows;
}

const periodName = (table: TableName, partition: string) => partition.slice(table.length + 1);

/** The next period boundary strictly after `at`, on the grid of `periodMs` from the epoch. */
const boundaryAfter = (at: number, periodMs: number) => Math.floor(at / periodMs) * periodMs + periodMs;

async function extendAhead(
  query: Query,
  { periodMs, target, now }: { periodMs: number; target: number; now: number },
  result: TimePartitionResult,
): Promise<void> {
  // The three overflows start together (ensure_overflow_partitions keeps them so after a run cut short
  // between them); periods are made from that start for all three, so a table whose overflow started
  // earlier would be left with no partition between the two. Refused, naming them, rather than so.
  const starts = new Map<TableName, Date | null | undefined>();
  for (const { name } of TABLES) {
    starts.set(name, (await partitionsOf(query, name)).find((p) => p.upper_at === null)?.lower_at);
  }
  const overflowStart = starts.get('messages');
  if ([...starts.values()].some((at) => at?.getTime() !== overflowStart?.getTime())) {
    throw new Error(
      'time partitions: the overflow partitions of messages, deliveries and attempts start at different times (' +
        [...starts].map(([name, at]) => `${name}: ${at?.toISOString() ?? 'none'}`).join(', ') +
        '); no period is added until they agree',
    );
  }
  if (!overflowStart || overflowStart.getTime() >= target) return;
  const start = overflowStart.getTime();
  const { rows } = await query<{ newest: Date | null }>(
    `SELECT greatest(${TABLES.map((t) => `(SELECT hookline.id_time(id::text) FROM hookline.${t.name}_overflow ORDER BY id DESC LIMIT 1)`).join(', ')}) AS newest`,
  );
  const newest = rows[0]?.newest?.getTime() ?? null;
  // Ids at or after the overflow's start may be written any moment once now is near it: then the
  // overflow cannot be detached without a lock that holds producers back.
  if (newest === null && start > now + MINUTE) {
    for (const { name } of TABLES) {
      await query(`ALTER TABLE hookline.${name} DETACH PARTITION hookline.${name}_overflow CONCURRENTLY`);
      await query(`DROP TABLE hookline.${name}_overflow`);
    }
    await inTransaction(query, async () => {
      for (let lower = start; lower < target;) {
        const upper = boundaryAfter(lower, periodMs);
        for (const { name } of TABLES) {
          const { rows: added } = await query<{ name: string }>(
            'SELECT hookline.add_time_partition($1, $2, $3) AS name',
            [name, new Date(lower), new Date(upper)],
          );
          if (name === 'messages') result.created.push(periodName(name, added[0]!.name));
        }
        lower = upper;
      }
      await query('SELECT hookline.ensure_overflow_partitions()');
    });
    return;
  }
  // The overflow holds rows (or is about to): it becomes the period [start, upper), with upper past
  // both its newest row and the target, and a new overflow follows it. Producers write into it
  // meanwhile, so it must stay attached until the moment it is re-attached with its new bounds: that
  // is one transaction under an ACCESS EXCLUSIVE lock on the three tables, producers waiting. What
  // takes time is done before it, without that lock: the period's bounds are added as a CHECK NOT
  // VALID (new rows are checked from then on; their ids are now, inside them) and validated by a scan
  // that lets inserts go on, so the ATTACH inside needs no scan; once attached, the CHECK goes (it
  // would cost every insert into the period: prisma/functions/time-partitions.sql).
  const upper = boundaryAfter(Math.max(target, newest ?? 0), periodMs);
  const bounds = new Map<TableName, { period: string; lower: string; upper: string }>();
  for (const { name, prefix } of TABLES) {
    const { rows: named } = await query<{ period: string; lower: string; upper: string }>(
      `SELECT $1 || '_p' || to_char($2::timestamptz AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI') AS period,
              hookline.id_at($3, $2) AS lower, hookline.id_at($3, $4) AS upper`,
      [name, new Date(start), prefix, new Date(upper)],
    );
    const named0 = named[0]!;
    bounds.set(name, named0);
    // Adding a CHECK locks the overflow producers write into: briefly, and never queued for long
    // behind another transaction's lock (withShortLocks). First go any left by a conversion cut
    // short, with other bounds (and _upper, by a release before migration 20261202090000).
    await withShortLocks(query, async () => {
      await query(`ALTER TABLE hookline.${name}_overflow DROP CONSTRAINT IF EXISTS ${name}_overflow_bounds`);
      await query(`ALTER TABLE hookline.${name}_overflow DROP CONSTRAINT IF EXISTS ${name}_overflow_upper`);
      await query(
        `ALTER TABLE hookline.${name}_overflow ADD CONSTRAINT ${name}_overflow_bounds
           CHECK (id >= '${named0.lower}' AND id < '${named0.upper}') NOT VALID`,
      );
    });
    await query(`ALTER TABLE hookline.${name}_overflow VALIDATE CONSTRAINT ${name}_overflow_bounds`);
  }
  try {
    await takeOverflowAsPeriod(query, bounds, result);
  } catch (error) {
    // Left in place, the CHECK would refuse producers' ids once the clock passes its upper bound, if
    // no maintenance ran again before then (the case the overflow exists for). Best effort: the next
    // conversion drops it too.
    await withShortLocks(query, async () => {
      for (const { name } of TABLES) {
        await query(`ALTER TABLE hookline.${name}_overflow DROP CONSTRAINT IF EXISTS ${name}_overflow_bounds`);
      }
    }).catch(() => {});
    throw error;
  }
  result.overflowTaken = newest !== null;
}

/** The overflow of each table becomes the period `bounds` names, a new overflow after it: one transaction. */
async function takeOverflowAsPeriod(
  query: Query,
  bounds: Map<TableName, { period: string; lower: string; upper: string }>,
  result: TimePartitionResult,
): Promise<void> {
  await withShortLocks(query, async () => {
    for (const { name } of TABLES) {
      const { period, lower, upper: upperId } = bounds.get(name)!;
      await query(`ALTER TABLE hookline.${name} DETACH PARTITION hookline.${name}_overflow`);
      await query(`ALTER TABLE hookline.${name}_overflow RENAME TO ${period}`);
      if (name !== 'messages') {
        await query(
          `ALTER TABLE hookline.${period} RENAME CONSTRAINT ${name}_overflow_same_time TO ${period}_same_time`,
        );
      }
      await query(
        `ALTER TABLE hookline.${name} ATTACH PARTITION hookline.${period} FOR VALUES FROM ('${lower}') TO ('${upperId}')`,
      );
      await query(`ALTER TABLE hookline.${period} DROP CONSTRAINT ${name}_overflow_bounds`);
      if (name === 'messages') result.created.push(periodName(name, period));
    }
    await query('SELECT hookline.ensure_overflow_partitions()');
  });
}

/**
 * Whether nothing in a period is unfinished: no delivery in the claim index, no message waiting for
 * its fan-out, none whose first attempts a fan-out batch holds.
 */
async function periodIsFinished(
  query: Query,
  deliveriesTable: string,
  messageBounds: { lower: string | null; upper: string },
): Promise<boolean> {
  // A delivery waiting or leased by a claim has claimable_at; a first attempt under a fan-out batch's
  // lease has not, but its message is one of the batch's (worker/sql/fan-out-messages.sql); a message
  // not yet fanned out has no delivery at all, and its transaction is not visible in the cursor
  // (prisma/functions/fanout-snapshot.sql). Both are found through messages_written_by_idx.
  // Conservative about a transaction the fan-out took in part: all of its messages count as not yet
  // fanned out (its snapshot alone), so the period waits until the fan-out has taken it whole, a few
  // fan-outs later; dropping it early would lose the rest. The batches' test is exact (hookline.fanned_out,
  // with each end's transaction taken in part).
  const { rows } = await query<{ finished: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM hookline.${deliveriesTable} WHERE claimable_at IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM hookline.messages AS m, hookline.fanout_cursor AS c
                         WHERE ($1::uuid IS NULL OR m.id >= $1::uuid) AND m.id < $2::uuid
                           AND m.written_by >= pg_snapshot_xmin(c.fanned_out_through)
                           AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through))
        AND NOT EXISTS (SELECT 1 FROM hookline.fanout_batches AS b, hookline.messages AS m
                         WHERE ($1::uuid IS NULL OR m.id >= $1::uuid) AND m.id < $2::uuid
                           AND m.written_by >= pg_snapshot_xmin(b.after)
                           AND m.written_by <= pg_snapshot_xmax(b.through)
                           AND hookline.fanned_out(m.written_by, m.id, b.through, b.through_partial_xid, b.through_partial_id)
                           AND NOT hookline.fanned_out(m.written_by, m.id, b.after, b.after_partial_xid, b.after_partial_id)) AS finished`,
    [messageBounds.lower, messageBounds.upper],
  );
  return rows[0]!.finished;
}

/**
 * Whether a transaction still open (or prepared) may have written a message into the period: one
 * that holds a ROW EXCLUSIVE lock on its messages' partition and began before the period ended.
 * Its message is invisible to periodIsFinished, and committed while DETACH ... CONCURRENTLY waits for
 * it, it lands in a partition no query sees any more: the fan-out's cursor passes its transaction
 * without it, and the check after the detach, which reads the messages through their parent, cannot
 * see it either, so the period was dropped with a committed message never sent. Ids are the clock's
 * when written, so a transaction begun since cannot have (a statement over every partition, an app's
 * deletion, can lock it too). The messages' partition alone: the worker's claims, flushes and
 * renewals lock every deliveries partition while they run, and a delivery written late is seen by
 * the check on the detached table.
 */
async function periodHasOpenWriters(query: Query, period: Period): Promise<boolean> {
  const { rows } = await query<{ written: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_locks AS l
                      LEFT JOIN pg_catalog.pg_stat_activity AS a ON a.pid = l.pid
                     WHERE l.locktype = 'relation'
                       AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
                       AND l.relation = $1::regclass
                       AND l.mode = 'RowExclusiveLock'
                       -- A prepared transaction has no backend (pid NULL): counted, whenever it began.
                       AND (l.pid IS NULL OR a.xact_start IS NULL OR a.xact_start < $2)) AS written`,
    [`hookline.messages_${period.name}`, period.upperAt],
  );
  return rows[0]!.written;
}

interface Period {
  /** The name after the table's: p20261125t1600, or before_20261125t1642 for the legacy partition. */
  name: string;
  lowerAt: Date | null;
  upperAt: Date;
}

const boundsOf = async (query: Query, prefix: string, period: Period) => {
  const { rows } = await query<{ lower: string | null; upper: string }>(
    `SELECT CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE hookline.id_at($1, $2) END AS lower,
            hookline.id_at($1, $3) AS upper`,
    [prefix, period.lowerAt, period.upperAt],
  );
  return rows[0]!;
};

async function dropExpired(query: Query, cutoff: number, result: TimePartitionResult): Promise<void> {
  const expired: Period[] = (await partitionsOf(query, 'messages'))
    .filter((p) => p.upper_at !== null && p.upper_at.getTime() <= cutoff)
    .map((p) => ({ name: periodName('messages', p.partition_name), lowerAt: p.lower_at, upperAt: p.upper_at! }));
  for (const period of expired) {
    const messageBounds = await boundsOf(query, '', period);
    if (
      (await periodHasOpenWriters(query, period)) ||
      !(await periodIsFinished(query, `deliveries_${period.name}`, messageBounds))
    ) {
      result.held.push(period.name);
      continue;
    }
    for (const { name } of TABLES) {
      await query(`ALTER TABLE hookline.${name} DETACH PARTITION hookline.${name}_${period.name} CONCURRENTLY`);
    }
    await dropOrReattach(query, period, messageBounds, result);
  }
}

/** After the detach: drops the period's tables if it is still finished, else attaches them back. */
async function dropOrReattach(
  query: Query,
  period: Period,
  messageBounds: { lower: string | null; upper: string },
  result: TimePartitionResult,
): Promise<void> {
  if (await periodIsFinished(query, `deliveries_${period.name}`, messageBounds)) {
    await inTransaction(query, async () => {
      for (const { name } of TABLES) await query(`DROP TABLE hookline.${name}_${period.name}`);
      await query(
        `DELETE FROM hookline.idempotency_keys WHERE ($1::uuid IS NULL OR message_id >= $1::uuid) AND message_id < $2::uuid`,
        [messageBounds.lower, messageBounds.upper],
      );
    });
    result.dropped.push(period.name);
    return;
  }
  await inTransaction(query, async () => {
    for (const { name, prefix } of TABLES) {
      const bounds = await boundsOf(query, prefix, period);
      await query(
        `ALTER TABLE hookline.${name} ATTACH PARTITION hookline.${name}_${period.name}
           FOR VALUES FROM (${bounds.lower === null ? 'MINVALUE' : `'${bounds.lower}'`}) TO ('${bounds.upper}')`,
      );
      // Attached without a scan thanks to the CHECK its DETACH ... CONCURRENTLY added, which goes now.
      await query('SELECT hookline.drop_bound_checks($1)', [`${name}_${period.name}`]);
    }
  });
  result.held.push(period.name);
}

/**
 * A DETACH ... CONCURRENTLY cut short (its connection lost) leaves the partition half detached; it is
 * finished here, and the period is dropped or attached back as retention would have decided. The
 * period's bounds come from the CHECK constraint the detach added, and its name.
 */
async function finishInterruptedDetaches(query: Query, result: TimePartitionResult): Promise<void> {
  for (const { name } of TABLES) {
    for (const partition of await partitionsOf(query, name)) {
      if (!partition.detach_pending) continue;
      await query(`ALTER TABLE hookline.${name} DETACH PARTITION hookline.${partition.partition_name} FINALIZE`);
    }
  }
  // An overflow detached to make room for new periods and not dropped is hookline.ensure_overflow_partitions'
  // to drop (or refuse, if it holds rows), which runs next: every start runs it too.
  // Periods whose tables are not all attached: a drop that stopped between its steps (retention
  // detaches messages, deliveries, attempts in turn), found by whichever of the three is loose.
  const { rows } = await query<{ period: string; table_name: string; lower_at: Date | null; upper_at: Date | null }>(
    // A period's bounds are in the CHECK constraint DETACH ... CONCURRENTLY added (<partition>_id_check:
    // id >= lower AND id < upper; a release before 20261202090000 kept them in _bounds and _upper);
    // the legacy partition's upper bound is in its name, in UTC (it starts at MINVALUE).
    `SELECT DISTINCT ON (t.period) t.period, t.relname AS table_name, t.lower_at, t.upper_at
       FROM (SELECT c.relname,
                    substring(c.relname FROM '^(?:messages|deliveries|attempts)_(.*)$') AS period,
                    hookline.id_time(substring(k.defs FROM $$id >= '([^']+)'$$)) AS lower_at,
                    coalesce(hookline.id_time(substring(k.defs FROM $$id < '([^']+)'$$)),
                             to_timestamp(substring(c.relname FROM '_before_(.*)$'), 'YYYYMMDD"t"HH24MI')::timestamp
                               AT TIME ZONE 'UTC') AS upper_at
               FROM pg_class AS c
               JOIN pg_namespace AS n ON n.oid = c.relnamespace AND n.nspname = 'hookline'
               LEFT JOIN LATERAL (
                 SELECT string_agg(pg_get_constraintdef(oid), ' ') AS defs
                   FROM pg_constraint WHERE conrelid = c.oid AND contype = 'c'
               ) AS k ON true
              WHERE c.relkind = 'r' AND NOT c.relispartition
                AND c.relname ~ '^(messages|deliveries|attempts)_(p\\d{8}t\\d{4}|before_\\d{8}t\\d{4})$') AS t
      ORDER BY t.period, t.upper_at IS NULL, t.relname`,
  );
  for (const row of rows) {
    if (row.upper_at === null) {
      throw new Error(
        `hookline.${row.table_name} is detached and no CHECK constraint on it says where its period ends ` +
          `(DETACH ... CONCURRENTLY adds one; a plain DETACH does not): attach it back by hand before maintenance can go on`,
      );
    }
    const period: Period = { name: row.period, lowerAt: row.lower_at, upperAt: row.upper_at };
    // Detach whichever of the three are still attached, then decide as retention would.
    for (const { name } of TABLES) {
      const attached = (await partitionsOf(query, name)).some((p) => p.partition_name === `${name}_${period.name}`);
      if (attached)
        await query(`ALTER TABLE hookline.${name} DETACH PARTITION hookline.${name}_${period.name} CONCURRENTLY`);
    }
    await dropOrReattach(query, period, await boundsOf(query, '', period), result);
  }
}

const LOCK_TIMEOUT_MS = 100;
const LOCK_ATTEMPTS = 50;

/**
 * `work` in a transaction whose locks are waited for at most 100 ms each, tried again (up to 50 times,
 * a little later each time) when one is not granted. The exclusive locks on the three tables are taken
 * one after another while producers and the worker's statements take theirs in their own orders: a
 * long wait could deadlock with one of them (seen in the soak: the claim aborted with "deadlock
 * detected" after the default 1 s deadlock timeout), and would hold every producer queued behind it.
 * Giving up first bounds what a producer waits to 100 ms, and leaves no deadlock for PostgreSQL to
 * break by aborting someone else's statement.
 */
async function withShortLocks(query: Query, work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction(query, async () => {
        await query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
        await work();
      });
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // 55P03 lock_not_available (the lock timeout), 40P01 deadlock_detected.
      if ((code !== '55P03' && code !== '40P01') || attempt >= LOCK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

async function inTransaction(query: Query, work: () => Promise<void>): Promise<void> {
  await query('BEGIN');
  try {
    await work();
    await query('COMMIT');
  } catch (error) {
    await query('ROLLBACK').catch(() => {});
    throw error;
  }
}
