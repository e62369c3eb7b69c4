// Once-a-minute chores that need one worker, not all of them: the queue depth sample, time partitions
// (worker/time-partitions.ts), retention of the rollups and the operational events pass (worker/operations/).
// Each runs inside a transaction holding a transaction-level advisory lock taken with try (never
// waiting), so with N workers one does the work and the others skip that minute.
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import { withTryLock } from './advisory-lock';
import type { Clock } from './clock';
import type { WorkerMetrics } from './metrics';
import { runOperationsPass } from './operations/run-operations-pass';
import { statements } from './statements';
import { sealEndpointSecrets, type SealResult } from '../lib/database/seal-endpoint-secrets';
import { PeriodicChore, type Service } from './service';
import { logTimePartitions, maintainTimePartitions } from './time-partitions';

// Arbitrary constants, the same in every Hookline process.
const QUEUE_DEPTH_LOCK = 72_616_917_341;
const RETENTION_LOCK = 72_616_917_342;

export interface RetentionOptions {
  /**
   * Messages, deliveries and attempts of a period that ended more than this ago are dropped with the
   * period, once nothing in it is unfinished (worker/time-partitions.ts).
   */
  retentionMs: number;
  /** Rollups and queue depth samples older than this are deleted. */
  statsRetentionMs: number;
  /** Audit log rows older than this are deleted; omitted: kept (HOOKLINE_AUDIT_RETENTION sets it). */
  auditRetentionMs?: number;
}

/**
 * How long the queue sample may count, in the server: under the maintenance connection's 5 s client
 * timeout (worker/worker-connections.ts), so PostgreSQL cancels it itself. Abandoned by the client
 * alone, it went on counting: 27 s on average and up to 93 s at 100 M deliveries with 1.7 M of them
 * retrying or dead (bench:dashboard), and the time partitions' DETACH ... CONCURRENTLY waited for it.
 */
export const QUEUE_SAMPLE_TIMEOUT_MS = 4_000;

/**
 * Writes this minute's sample unless another worker did. Returns the rows written, or null if skipped.
 * A count that takes longer than QUEUE_SAMPLE_TIMEOUT_MS is cancelled: that minute has no point in the
 * queue chart, and the error says why.
 */
export async function sampleQueueDepth(pool: Pool): Promise<{ state: string; count: number }[] | null> {
  return withTryLock(pool, QUEUE_DEPTH_LOCK, 'transaction', async (query) => {
    await query(`SET LOCAL statement_timeout = ${QUEUE_SAMPLE_TIMEOUT_MS}`);
    try {
      const { rows } = await statements.sampleQueueDepth.run(query, {});
      return rows;
    } catch (error) {
      if ((error as { code?: string }).code !== '57014') throw error;
      throw new Error(
        `the queue depth sample took longer than ${QUEUE_SAMPLE_TIMEOUT_MS} ms and was cancelled: the queue chart has no point for this minute`,
        { cause: error },
      );
    }
  });
}

export interface RetentionResult {
  rollups: number;
  samples: number;
  auditEvents: number;
}

/**
 * Deletes rollups and queue depth samples past their retention; null when another worker holds the
 * retention lock. Messages, deliveries and attempts are not deleted row by row: their periods are
 * dropped whole (worker/time-partitions.ts).
 */
export async function applyRetention(pool: Pool, options: RetentionOptions): Promise<RetentionResult | null> {
  return withTryLock(pool, RETENTION_LOCK, 'session', async (query) => {
    const { rows } = await statements.deleteOldStats.run(query, { olderThanMs: options.statsRetentionMs });
    let auditEvents = 0;
    if (options.auditRetentionMs !== undefined) {
      // Batches of 10,000 rows, each its own transaction, until fewer are left.
      for (;;) {
        const deleted =
          (await statements.deleteOldAuditEvents.run(query, { olderThanMs: options.auditRetentionMs, limit: 10_000 }))
            .rowCount ?? 0;
        auditEvents += deleted;
        if (deleted < 10_000) break;
      }
    }
    return { rollups: rows[0]?.rollups ?? 0, samples: rows[0]?.samples ?? 0, auditEvents };
  });
}

/** Current totals for the metrics gauges: the latest queue depth sample and endpoints per circuit state. */
export async function readGauges(
  pool: Pool,
): Promise<{ queue: { state: string; count: number }[]; circuits: { state: string; count: number }[] }> {
  const [queue, circuits] = await Promise.all([
    // The newest sample, if it is recent: one cancelled every minute (a queue too large to count in
    // QUEUE_SAMPLE_TIMEOUT_MS) left the gauge showing the last one that finished, however old.
    pool.query<{ state: string; count: number }>(
      `SELECT state, sum(count)::bigint AS count FROM hookline.queue_depth_samples
        WHERE sampled_at = (SELECT max(sampled_at) FROM hookline.queue_depth_samples)
          AND sampled_at > now() - interval '3 minutes'
        GROUP BY state`,
    ),
    pool.query<{ state: string; count: number }>(
      `SELECT circuit_state AS state, count(*) AS count FROM hookline.endpoints GROUP BY circuit_state`,
    ),
  ]);
  return { queue: queue.rows, circuits: circuits.rows };
}

/**
 * Periods of messages that ended more than the retention ago and are still stored: retention keeps
 * them while a delivery in them is unfinished. Read from the catalog, not from the last time-partition
 * run, so every worker reports the same whichever holds the maintenance lock.
 */
export async function countPeriodsPastRetention(pool: Pool, retentionMs: number, now = new Date()): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM hookline.time_partitions('messages')
      WHERE upper_at <= $2::timestamptz - make_interval(secs => $1::float8 / 1000)`,
    [retentionMs, now],
  );
  return rows[0]?.count ?? 0;
}

export function logRetention(log: Logger, result: RetentionResult | null): void {
  if (result && (result.rollups || result.samples || result.auditEvents)) {
    log.info('retention removed old rows', { ...result });
  }
}

function logSealed(log: Logger, result: SealResult): void {
  if (result.encrypted || result.rewrapped) log.info('signing secrets encrypted with the current key', { ...result });
  if (result.unknownKey) {
    log.error(
      'signing secrets encrypted with a key this worker does not have: set the same HOOKLINE_ENCRYPTION_KEY everywhere',
      {
        ...result,
      },
    );
  }
}

/**
 * The once-a-minute chores of one worker: time partitions, retention, the queue depth sample and the
 * gauges, the operational events pass, sealing secrets. Each on its own: one that fails or overruns is
 * logged and counted, and the others still run; the next try comes a minute later. In the order of
 * what waiting costs: producers need periods ahead and the disk needs retention, so those go first. Run
 * after a failed queue sample, as they once were, they did not run at all while the sample overran
 * (bench:dashboard at 100 M deliveries, every minute).
 */
export async function runMaintenance(options: {
  pool: Pool;
  metrics: WorkerMetrics;
  retention: RetentionOptions | null;
  log: Logger;
}): Promise<void> {
  const { pool, metrics, log } = options;
  const retentionMs = options.retention?.retentionMs ?? null;
  const chore = async (operation: string, failure: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      metrics.databaseErrors.inc({ operation });
      log.error(failure, { error });
    }
  };
  await chore('time_partitions', 'time partitions could not be maintained; the other chores go on', async () => {
    logTimePartitions(log, await maintainTimePartitions(pool, { retentionMs }));
  });
  await chore('retention', 'retention failed; the other chores go on', async () => {
    if (retentionMs !== null) metrics.periodsPastRetention.set({}, await countPeriodsPastRetention(pool, retentionMs));
    if (options.retention) logRetention(log, await applyRetention(pool, options.retention));
  });
  await chore('queue_depth', 'the queue depth sample failed; the other chores go on', async () => {
    await sampleQueueDepth(pool);
  });
  await chore('gauges', 'the gauges could not be read; the other chores go on', async () => {
    const gauges = await readGauges(pool);
    // No recent sample: no series, rather than an old count that looks current.
    metrics.queueDepth.reset();
    for (const { state, count } of gauges.queue) metrics.queueDepth.set({ state }, count);
    for (const state of ['closed', 'open', 'half_open']) {
      metrics.circuits.set({ state }, gauges.circuits.find((row) => row.state === state)?.count ?? 0);
    }
  });
  // Operational events (issue 14): newly dead deliveries, alert rules.
  await chore('operations', 'the operational events pass failed; the other chores go on', async () => {
    await runOperationsPass(pool, { retentionMs: options.retention?.retentionMs });
  });
  // Secrets SQL wrote in plaintext (hookline.http_post's implicit endpoints) or under the previous key.
  await chore('sealing', 'endpoint secrets could not be sealed; the other chores go on', async () => {
    logSealed(log, await sealEndpointSecrets(pool));
  });
}

/** runMaintenance every `everyMs`, the first run a second after the start (worker/service.ts). */
export function maintenanceService(
  options: Parameters<typeof runMaintenance>[0] & { everyMs: number; clock?: Clock },
): Service {
  return new PeriodicChore('maintenance', options.everyMs, () => runMaintenance(options), {
    firstAfterMs: Math.min(1000, options.everyMs),
    log: options.log,
    clock: options.clock,
  });
}
