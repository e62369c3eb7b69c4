// The worker's connection pools and the settings that make a silent or slow database cost seconds, not
// hours. The hot statements (claim, fan-out, renewals, releases: worker/sql/) join by key
// (BY_KEY_SETTINGS), the recording of results (a connection of its own) reads by key only
// (RECORD_BY_KEY_SETTINGS); the once-a-minute maintenance, which counts and scans on purpose, has a
// connection of its own with the planner's defaults, without JIT (MAINTENANCE_SETTINGS).
import { CONNECTION_NAMES, createPool, type Pool } from '../lib/database/pg';

// The worker's statements take milliseconds (a flush of 500 results: ~20 ms); one that has not
// answered in 5 s is on a connection that went silent, and is dropped so the next one reconnects
// (lib/database/pg.ts). Short enough that delivery resumes within seconds once the database is reachable again.
const WORKER_CONNECTION_LIMITS = { query_timeout: 5_000, connectionTimeoutMillis: 3_000 };

// And the server's side of such a connection: a backend whose client went silent mid-transaction
// would hold its locks until the kernel's keepalive gives up (2 hours by default).
const WORKER_SESSION_SETTINGS = {
  idle_in_transaction_session_timeout: '10s',
  tcp_keepalives_idle: '30',
  tcp_keepalives_interval: '10',
  tcp_keepalives_count: '3',
};

/**
 * Planner settings of the connections that run the hot statements: join by key. Every join in them
 * is on a key (a batch's rows to deliveries, messages, batch rows, endpoints and rollups), but below
 * ~150,000 rows PostgreSQL 15 and 18 both priced a hash join over a sequential scan of the whole table
 * cheaper than the batch's index probes: the fan-out of the release before 20261130090000 read every
 * queued message and queue row (20,000 waiting: 20,001 and 20,000 rows for 256 messages, PostgreSQL
 * 18), so each fan-out of a drain read the whole backlog. Without hash and merge joins, a nested loop probes the key of each row.
 * Sequential scans stay allowed here: on PostgreSQL 15, forbidding them made the deliveries insert
 * trigger's check of hookline.polling_workers (a handful of rows) and the expired-lease check of
 * the fan-out queue of that release walk whole indexes instead: 34 ms per fan-out and 232 ms per check, a
 * 100k drain at 1,788/s instead of ~3,500/s.
 */
export const BY_KEY_SETTINGS: Record<string, string> = {
  enable_hashjoin: 'off',
  enable_mergejoin: 'off',
  // The hot statements are prepared (worker/statements.ts), parsed once per connection, but planned
  // on every call with the tables as they are now (statements with parameters; plans of PL/pgSQL
  // functions run here too). A plan kept from an earlier call is only as good
  // as the table it was made for: the claim's generic plan, made while deliveries was nearly empty,
  // read the whole table on every call once a drain had filled it (4.7 ms a claim instead of 0.014,
  // PostgreSQL 18, 20k drain).
  plan_cache_mode: 'force_custom_plan',
  // No JIT compilation: these statements run in a millisecond, and compiling one costs tens. The
  // claim's estimate grows with the time partitions it plans over (every partition's claim index), and
  // once retention kept 25 of them it passed jit_above_cost (100,000) on PostgreSQL 15 built with LLVM
  // (Debian's, as most users' are): every claim was compiled, 38 ms of JIT per call (78.8 s over 2,083
  // claims in pg_stat_statements), and p50 enqueue -> delivery in the 30-minute soak went from 41 ms to
  // 140-180 ms from minute 11 to the end. Turned off on the live soak at minute 20, p50 fell back.
  // The embedded PostgreSQL 18 ships no LLVM, so it never compiled there.
  jit: 'off',
};

/**
 * The recording connection also forbids sequential scans: with the fence on lease_owner alone, a
 * flush on PostgreSQL 15 whose statistics had seen no row in flight read every leased row through a
 * partial index, or the whole table (500 results: 2,757 ms behind a 20,000-row backlog instead of
 * 21 ms). Its statement touches deliveries, fan-out batch rows, endpoints and rollups by key only.
 * test/worker/record-results-plan.test.ts checks these plans behind a backlog, on 18 and (with
 * DATABASE_URL) on 15.
 */
export const RECORD_BY_KEY_SETTINGS: Record<string, string> = {
  ...BY_KEY_SETTINGS,
  enable_seqscan: 'off',
  // With sequential scans off, every table the flush touches is read through a key whatever its size,
  // so the plan made on the first flush holds for the rest: planned once per connection. Planning
  // it afresh took 0.69 ms of each flush on PostgreSQL 15.
  plan_cache_mode: 'force_generic_plan',
};

/**
 * The connection that takes work (worker/take-deliveries.ts: the claim, then the fan-out) plans each
 * statement once, like the recording one. Planned on every call, with 16 time partitions (a 1-minute
 * period, as the bench and the soak run; 7 days of retention keep ~12), planning was most of their
 * cost: 1.5-1.8 ms per claim that then ran in 0.1-0.2 ms, and 2.4-2.9 ms per fan-out of 256 messages
 * that ran in ~5 ms, on PostgreSQL 18 and 15 alike (EXPLAIN ANALYZE behind a 20,000-message backlog);
 * planned once, ~0.05 ms. A kept plan must be right for backlogs it was not made for. Both read
 * their candidates from an index in its order (the claim index; messages_written_by_idx, from the
 * cursor the worker passes as parameters) and stop at their LIMIT, and every join is by key, so the
 * plan made on an empty database is the one a full one gets.
 * Sequential scans are forbidden here too, as on the recording connection: a period analysed while
 * empty (an ANALYZE of the whole database finds the periods ahead so; `vacuumdb --analyze-only` after
 * pg_upgrade runs one) is priced at no rows, and the claim planned then read it by sequential scan. Once
 * the period filled, every claim read all of its finished deliveries to find the few due: 17 ms a claim
 * returning none, a 100k drain at 3,100-3,800/s instead of 6,900-7,900 (PostgreSQL 18, `npm run bench
 * -- --profile`; the bench had analysed deliveries while empty), until autovacuum analysed the period
 * again. The two statements read their tables by index only; the one-row fan-out cursor is read
 * whole either way.
 * test/worker/record-results-plan.test.ts makes both plans on an empty database, on an analysed
 * backlog and on periods analysed while empty, and runs them behind it, on 18 and 15.
 */
export const TAKE_SETTINGS: Record<string, string> = {
  ...BY_KEY_SETTINGS,
  enable_seqscan: 'off',
  plan_cache_mode: 'force_generic_plan',
};

/**
 * The maintenance connection: the planner's defaults, but no JIT compilation either. Its statements
 * count the live queue and manage partitions, in well under a second; an estimate that passes
 * jit_above_cost compiles for longer than that on a PostgreSQL built with LLVM. The queue sample, with
 * its batch messages priced for an unanalysed hookline.fanout_batches (370 rows) and a probe of
 * deliveries for each, was estimated at 12.7 M: Debian's PostgreSQL 15 compiled 136 functions for
 * over 5 s, past the connection's 5 s timeout, every minute of a 20k drain, and with the maintenance
 * failing, so did its creation of time partitions (486 µs of CPU per delivery, against 247 for the
 * commit before the view's change, measured beside it).
 */
export const MAINTENANCE_SETTINGS: Record<string, string> = { jit: 'off' };

export function connectionOptions(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
}

export interface WorkerConnections {
  /** Lease renewals and releases, endpoint lookups: by key. */
  pool: Pool;
  /** The claim and the fan-out, one after the other: by key, each planned once. */
  takePool: Pool;
  /** The flusher's own connection, by key: a flush never waits behind a claim. */
  recordPool: Pool;
  /** Queue samples, gauges, retention: the planner's defaults, without JIT. */
  maintenancePool: Pool;
}

/**
 * The commit setting of the connections that claim, fan out and record. A commit that waits for its
 * WAL to reach the disk made IO:WalSync and LWLock:WALWrite 35-60 % of the sampled PostgreSQL waits
 * in a drain (`npm run bench -- --profile`), and the loop waits for each fan-out before it sends.
 * Without the wait, a PostgreSQL crash (not a restart or a fast shutdown, which flush the WAL) can
 * forget the worker's last ~600 ms of commits (three wal_writer_delay rounds). Nothing accepted is
 * lost: the producer's own commit stays synchronous, and a forgotten fan-out or result is a delivery
 * that is fanned out or leased again and sent again, at least once as ever (receivers deduplicate on
 * webhook-id). HOOKLINE_WORKER_SYNCHRONOUS_COMMIT=true waits, as the server's setting says.
 */
function commitSettings(synchronousCommit: boolean): Record<string, string> {
  // Waiting keeps whatever the server, database or role says (remote_apply for a synchronous replica
  // stays remote_apply), rather than forcing 'on'.
  return synchronousCommit ? {} : { synchronous_commit: 'off' };
}

export function createWorkerConnections(
  connectionString: string,
  { synchronousCommit }: { synchronousCommit: boolean },
): WorkerConnections {
  const commit = commitSettings(synchronousCommit);
  return {
    pool: createPool(connectionString, {
      max: 2,
      ...WORKER_CONNECTION_LIMITS,
      application_name: CONNECTION_NAMES.worker,
      options: connectionOptions({ ...WORKER_SESSION_SETTINGS, ...BY_KEY_SETTINGS, ...commit }),
    }),
    takePool: createPool(connectionString, {
      max: 1,
      ...WORKER_CONNECTION_LIMITS,
      application_name: CONNECTION_NAMES.worker,
      options: connectionOptions({ ...WORKER_SESSION_SETTINGS, ...TAKE_SETTINGS, ...commit }),
    }),
    recordPool: createPool(connectionString, {
      max: 1,
      ...WORKER_CONNECTION_LIMITS,
      application_name: CONNECTION_NAMES.worker,
      options: connectionOptions({ ...WORKER_SESSION_SETTINGS, ...RECORD_BY_KEY_SETTINGS, ...commit }),
    }),
    // Two: retention holds its advisory lock on one while it deletes in batches on the other.
    maintenancePool: createPool(connectionString, {
      max: 2,
      ...WORKER_CONNECTION_LIMITS,
      application_name: CONNECTION_NAMES.worker,
      options: connectionOptions({ ...WORKER_SESSION_SETTINGS, ...MAINTENANCE_SETTINGS }),
    }),
  };
}

/**
 * The job runner's own connection (worker/jobs/job-runner.ts), with the worker sessions' server-side
 * limits: a job's batch is a transaction holding up to a batch of delivery rows, so a worker that
 * stalls in one must lose it within the idle-in-transaction limit, not hold those rows from claims and
 * flushes for hours. Its statements keep lib/database/pg.ts's 15 s client timeout: a selective replay filter
 * over a large app may read for seconds.
 */
export function createJobConnection(connectionString: string): Pool {
  return createPool(connectionString, {
    max: 1,
    options: connectionOptions(WORKER_SESSION_SETTINGS),
    application_name: CONNECTION_NAMES.worker,
  });
}

export async function closeWorkerConnections(connections: WorkerConnections): Promise<void> {
  await Promise.all(
    [connections.pool, connections.takePool, connections.recordPool, connections.maintenancePool].map((pool) =>
      pool.end().catch(() => {}),
    ),
  );
}
