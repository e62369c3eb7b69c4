// Runs background jobs (hookline.jobs: replay by filter, recover, backfill) inside a delivery worker.
// Each worker runs at most one job at a time, on its own single connection so a job never takes a
// connection the claim or the flush needs. A job is taken with SKIP LOCKED under a lease
// (worker/sql/take-job.sql) and worked through in batches, each one short transaction:
//   lock the job row, fenced on state and lease owner (job-lock.sql)
//   -> change the batch's rows (job-replay-batch.sql / job-backfill-batch.sql)
//   -> move the cursor, add to processed, renew the lease or finish (job-advance.sql)
//   -> commit.
// A job with nothing to do (a paced backfill waiting for its endpoint) steps aside for another job
// waiting for a worker (job-step-aside.sql) instead of holding the slot.
// Crash cost: at most the batch in flight, which rolls back whole; its rows and the cursor did not
// move, and when the lease runs out another worker resumes at the cursor. No row is done twice.
// A cancel (lib/domain/jobs/cancel-job.ts) is seen by the next batch's lock, so it stops within one batch.
import type { Logger } from '../../lib/runtime/log';
import { withPoolClient, type Pool, type PoolClient } from '../../lib/database/pg';
import { replayMatch, type StoredReplayParams } from './job-filter';
import { statements } from '../statements';
import { createJobConnection } from '../worker-connections';
import { databaseBackoffMs } from '../database-backoff';
import type { Service } from '../service';
import { realClock, type Clock, type Timer } from '../clock';

export interface JobRunnerOptions {
  connectionString: string;
  workerId: string;
  log: Logger;
  /** Rows per batch transaction. 2,000 replayed rows is ~30 ms of locks (see job-replay-batch.sql). */
  batchSize?: number;
  /** A pause between batches, to leave the database to the delivery hot path; default none. */
  batchPauseMs?: number;
  /** The job's lease, renewed by every batch; a killed worker's job is resumed this long after. */
  leaseSeconds?: number;
  /** How often an idle runner looks for a job, and a paced backfill for room. */
  pollIntervalMs?: number;
  /** Times its pauses and polls (worker/clock.ts). */
  clock?: Clock;
}

export interface TakenJob {
  id: string;
  app_id: string;
  kind: 'replay' | 'recover' | 'backfill';
  params: StoredReplayParams & { endpointId?: string; since?: string };
  cursor: Record<string, unknown> | null;
  as_of: Date;
  total: number;
  processed: number;
}

interface BatchOutcome {
  changed: number;
  cursor: Record<string, unknown> | null;
  done: boolean;
  /** Nothing to do until the endpoint sends what is queued (a paced backfill). */
  waiting?: boolean;
  /** The job cannot go on: ends as failed with this message. */
  failure?: string;
}

// After this many consecutive database errors on one job it ends as failed (its cursor shows how far
// it got); fewer are retried after a back-off, as the worker's other loops do.
const MAX_CONSECUTIVE_ERRORS = 5;

export class JobRunner implements Service {
  readonly name = 'background jobs';
  private readonly pool: Pool;
  private readonly batchSize: number;
  private readonly leaseSeconds: number;
  private readonly pollMs: number;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private sleeper: { timer: Timer; resolve: () => void } | null = null;

  constructor(private readonly options: JobRunnerOptions) {
    this.pool = createJobConnection(options.connectionString);
    this.batchSize = options.batchSize ?? 2000;
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.pollMs = options.pollIntervalMs ?? 1000;
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  /** Finishes the batch in flight, hands the job back to the queue and closes the connection. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp();
    await this.loopDone;
    await this.pool.end().catch(() => {});
  }

  /** Takes jobs until none is left; for tests and scripts that run jobs without the loop. */
  async runUntilIdle(): Promise<void> {
    while (!this.stopping && (await this.runOne())) {
      /* next job */
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let ran = false;
      try {
        ran = await this.runOne();
      } catch (error) {
        this.options.log.warn('job runner failed; retrying', { error });
      }
      if (!ran) await this.sleep(this.pollMs);
    }
  }

  /** Takes one job and works it until it ends, is cancelled, is lost, or the runner stops. */
  private async runOne(): Promise<boolean> {
    const { rows } = await statements.takeJob.run(this.pool, {
      workerId: this.options.workerId,
      leaseSeconds: this.leaseSeconds,
    });
    const job = rows[0];
    if (!job) return false;
    const log = this.options.log.child({ jobId: job.id, kind: job.kind });
    log.info('job taken', { processed: job.processed, total: job.total, resumed: job.cursor !== null });
    let cursor = job.cursor;
    let errors = 0;
    while (true) {
      if (this.stopping) {
        // Back to the queue now rather than when the lease runs out: another worker resumes it at once.
        await statements.endJob
          .run(this.pool, { jobId: job.id, workerId: this.options.workerId, state: 'running', error: null })
          .catch(() => {});
        return true;
      }
      let outcome: BatchOutcome | 'lost';
      try {
        outcome = await this.batch(job, cursor);
        errors = 0;
      } catch (error) {
        errors++;
        if (errors >= MAX_CONSECUTIVE_ERRORS) {
          const message = `stopped after ${errors} database errors in a row; the last: ${(error as Error).message}`;
          await statements.endJob
            .run(this.pool, { jobId: job.id, workerId: this.options.workerId, state: 'failed', error: message })
            .catch(() => {});
          log.error('job failed', { error });
          return true;
        }
        log.warn('job batch failed; retrying', { error, errors });
        // 400 ms doubling to 10 s: a job is background work, in no hurry while the database struggles.
        await this.sleep(databaseBackoffMs(errors + 2, 10_000));
        continue;
      }
      if (outcome === 'lost') {
        log.info('job cancelled or taken over; stopping it here');
        return true;
      }
      if (outcome.failure) {
        await statements.endJob.run(this.pool, {
          jobId: job.id,
          workerId: this.options.workerId,
          state: 'failed',
          error: outcome.failure,
        });
        log.warn('job failed', { error: outcome.failure });
        return true;
      }
      if (outcome.done) {
        log.info('job finished');
        return true;
      }
      cursor = outcome.cursor ?? cursor;
      if (outcome.waiting) {
        // Nothing to do until its endpoint sends: the slot goes to another job if one waits for it
        // (job-step-aside.sql); this one is taken again when that ends, or by any free worker.
        const { rows: aside } = await statements.stepAsideJob.run(this.pool, {
          jobId: job.id,
          workerId: this.options.workerId,
          seconds: this.pollMs / 1000,
        });
        if (aside.length > 0) {
          log.info('job waiting; another job takes the slot meanwhile');
          return true;
        }
        await this.sleep(this.pollMs);
      } else if (this.options.batchPauseMs) await this.sleep(this.options.batchPauseMs);
    }
  }

  /** One batch in one transaction; 'lost' when the job is no longer this worker's to run. */
  private async batch(job: TakenJob, cursor: Record<string, unknown> | null): Promise<BatchOutcome | 'lost'> {
    return withPoolClient(this.pool, async (client) => {
      try {
        await client.query('BEGIN');
        const fence = await statements.lockJob.run(client, { jobId: job.id, workerId: this.options.workerId });
        if (fence.rowCount === 0) {
          await client.query('ROLLBACK');
          return 'lost';
        }
        const outcome =
          job.kind === 'backfill' ? await this.backfill(client, job, cursor) : await this.replay(client, job, cursor);
        if (outcome.failure) {
          await client.query('ROLLBACK');
          return outcome;
        }
        await statements.advanceJob.run(client, {
          jobId: job.id,
          workerId: this.options.workerId,
          cursor: outcome.cursor ? JSON.stringify(outcome.cursor) : null,
          changed: outcome.changed,
          done: outcome.done,
          leaseSeconds: this.leaseSeconds,
        });
        await client.query('COMMIT');
        return outcome;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
  }

  private async replay(
    client: PoolClient,
    job: TakenJob,
    cursor: Record<string, unknown> | null,
  ): Promise<BatchOutcome> {
    const match = replayMatch(job.kind as 'replay' | 'recover', job.params);
    const after = typeof cursor?.id === 'string' ? cursor.id : '';
    const { rows } = await statements.replayBatch.run(client, {
      appId: job.app_id,
      match: JSON.stringify(match),
      afterId: after,
      asOf: job.as_of,
      limit: this.batchSize,
    });
    const row = rows[0]!;
    // Fewer rows than a batch means the keyset reached the end of the set.
    return {
      changed: row.changed,
      cursor: row.last_id ? { id: row.last_id } : null,
      done: row.scanned < this.batchSize,
    };
  }

  private async backfill(
    client: PoolClient,
    job: TakenJob,
    cursor: Record<string, unknown> | null,
  ): Promise<BatchOutcome> {
    const { rows } = await statements.backfillBatch.run(client, {
      appId: job.app_id,
      endpointId: job.params.endpointId,
      since: job.params.since,
      asOf: job.as_of,
      cursor: cursor ? JSON.stringify(cursor) : null,
      limit: this.batchSize,
    });
    const row = rows[0]!;
    if (row.endpoints === 0) return { changed: 0, cursor: null, done: false, failure: 'the endpoint was deleted' };
    if (row.room === 0) return { changed: 0, cursor: null, done: false, waiting: true };
    // Stopped at a message not yet fanned out: the rest waits for the fan-out, a poll away.
    if (row.waits_for_fan_out) {
      return { changed: row.changed, cursor: row.cursor, done: false, waiting: row.scanned === 0 };
    }
    return { changed: row.changed, cursor: row.cursor, done: row.scanned < row.room };
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      this.sleeper = {
        timer: (this.options.clock ?? realClock).after(ms, () => {
          this.sleeper = null;
          resolve();
        }),
        resolve,
      };
    });
  }

  private wakeUp(): void {
    if (!this.sleeper) return;
    this.sleeper.timer.cancel();
    const { resolve } = this.sleeper;
    this.sleeper = null;
    resolve();
  }
}
