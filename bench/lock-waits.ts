// Samples, every 100 ms, the statements of one database that wait on a heavyweight lock
// (pg_stat_activity.wait_event_type = 'Lock') and who blocks them (pg_blocking_pids), for the soak's
// "no statement waits on retention". A blocker counts as retention when its statement is one of the
// worker's retention statements (worker/sql/delete-*.sql start with "-- Retention", the operations
// pass deletes old operational events and issue links) or is the time partitions' maintenance
// (worker/time-partitions.ts: attaching, detaching or dropping a partition). A sampler sees waits that last longer than its interval; one
// shorter than 100 ms can slip between two samples. The bench's own reads (BENCH_APPLICATION_NAME)
// are not what the criterion is about: one that waits (its per-minute size read waiting for a DROP
// TABLE, as in the PostgreSQL 15 soak of 2026-11-25) is listed with the other waits, never counted
// against retention.
import pg from 'pg';

/** The application_name of the bench's own connections (bench/scenarios.ts, withClient). */
export const BENCH_APPLICATION_NAME = 'hookline-bench';

const RETENTION_STATEMENT =
  /^\s*--\s*Retention|DELETE FROM hookline\.(operational_events|issue_deliveries)|(ATTACH|DETACH) PARTITION|DROP TABLE|add_time_partition|ensure_overflow_partitions/i;

export interface LockWait {
  /** When it was first seen (ms since the epoch). */
  at: number;
  waitingPid: number;
  waiting: string;
  lock: string;
  blockerPid: number;
  blocker: string;
  /** The waiter is a Hookline or producer statement and its blocker is retention. */
  blockedByRetention: boolean;
  /** The waiter is one of the bench's own reads. */
  waiterIsBench: boolean;
}

export interface LockWaitWatch {
  /** Waits seen since the last call (one entry per waiting statement and blocker), and clears them. */
  take(): { samples: number; waits: LockWait[] };
  stop(): Promise<void>;
}

const shorten = (query: string) => {
  const text = query.replace(/\s+/g, ' ').trim();
  return text.length > 140 ? `${text.slice(0, 137)}...` : text;
};

export async function watchLockWaits(databaseUrl: string, intervalMs = 100): Promise<LockWaitWatch> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  let samples = 0;
  let waits: LockWait[] = [];
  // A wait seen in consecutive samples is one wait: keyed by both pids and the waiter's query start.
  const seen = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client
        .query<{
          waiting_pid: number;
          waiting: string;
          waiting_application: string;
          lock: string;
          since: string;
          blocker_pid: number;
          blocker: string;
        }>(
          `SELECT w.pid AS waiting_pid, w.query AS waiting, w.application_name AS waiting_application, w.wait_event AS lock, w.query_start::text AS since,
                  b.pid AS blocker_pid, coalesce(b.query, '') AS blocker
             FROM pg_stat_activity AS w
             CROSS JOIN LATERAL unnest(pg_blocking_pids(w.pid)) AS blocking(pid)
             LEFT JOIN pg_stat_activity AS b ON b.pid = blocking.pid
            WHERE w.wait_event_type = 'Lock' AND w.datname = current_database()`,
        )
        .catch(() => ({ rows: [] }));
      samples++;
      for (const row of rows) {
        const key = `${row.waiting_pid} ${row.blocker_pid} ${row.since}`;
        if (seen.has(key)) continue;
        seen.add(key);
        waits.push({
          at: Date.now(),
          waitingPid: row.waiting_pid,
          waiting: shorten(row.waiting),
          lock: row.lock,
          blockerPid: row.blocker_pid,
          blocker: shorten(row.blocker),
          blockedByRetention:
            row.waiting_application !== BENCH_APPLICATION_NAME && RETENTION_STATEMENT.test(row.blocker),
          waiterIsBench: row.waiting_application === BENCH_APPLICATION_NAME,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    take() {
      const taken = { samples, waits };
      samples = 0;
      waits = [];
      return taken;
    },
    async stop() {
      running = false;
      await loop;
      await client.end().catch(() => {});
    },
  };
}
