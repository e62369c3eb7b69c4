// Buffers attempt results and writes them back in batches: one statement (worker/sql/record-results.sql,
// on the worker's recording connection: worker-connections.ts) per flush instead of one round trip per
// request. A flush starts when FLUSH_MAX_RESULTS are waiting or FLUSH_INTERVAL_MS after the first one
// arrived; only one runs at a time, so under load the next batch grows while the previous one is written.
// Crash cost: results buffered here are lost with the process; their deliveries keep their lease
// and are sent again when it runs out (at-least-once, same webhook-id and body).
import { randomInt } from 'node:crypto';
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import type { CircuitSettings, CircuitState } from './circuit-breaker';
import { realClock, sleep, type Clock, type Timer } from './clock';
import type { AttemptResult } from './deliver';
import type { WorkerMetrics } from './metrics';
import { databaseBackoffMs } from './database-backoff';
import { noneUnwritten, type Holding } from './leases';
import { statements, type UnwrittenColumns } from './statements';

export interface FlushOutcome {
  recorded: number;
  succeeded: number;
  dead: number;
  /** Endpoints whose health this flush changed, as they are now. */
  endpoints: { id: string; circuitState: CircuitState; enabled: boolean }[];
  /** Deliveries whose results the lease fence refused; null when there were none. */
  unrecorded: string[] | null;
}

/** Where the deliveries went whose results were refused (worker/sql/unrecorded-results.sql). */
export interface NotRecorded {
  takenOver: number;
  givenBack: number;
  alreadyFinished: number;
  gone: number;
  /** Refused, but where they went could not be read (the database did not answer). */
  unknown: number;
}

export interface FlusherOptions {
  pool: Pool;
  workerId: string;
  intervalMs: number;
  maxResults: number;
  circuit: CircuitSettings;
  /** Disable an endpoint after a failure streak this long; 0 = never. */
  autoDisableAfterMs: number;
  /** An attempt row for successes too; else a success lives on its delivery row alone. */
  keepSuccessfulAttempts: boolean;
  /** This worker's rollup rows (0-1023): see migration 20261124152000_rollup_shards. Default: drawn. */
  rollupShard?: number;
  log: Logger;
  metrics: WorkerMetrics;
  /** Fan-out batches whose rows the next flush deletes (worker/leases.ts). */
  finishedBatches?: () => string[];
  /** Their rows were deleted. */
  onBatchesDeleted?: (batchIds: string[]) => void;
  /** Of first attempts with no row yet (LeaseBook.unwrittenColumns): its result's write creates the row. */
  unwrittenColumns?: (deliveryIds: string[]) => UnwrittenColumns;
  /**
   * A flush was written: its results are recorded, or refused by the lease fence. `holding`: the
   * holdings (worker/leases.ts) the results were sent under, as add() was told them.
   */
  onFlushed?: (results: AttemptResult[], outcome: FlushOutcome, holding: Holding) => void;
  /** Times the flush interval, the back-off and the drain's deadline (clock.ts). */
  clock?: Clock;
}

export class ResultFlusher {
  private buffer: AttemptResult[] = [];
  private timer: Timer | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;
  /** Deliveries whose results the flush under way is writing now. */
  private readonly writing = new Set<string>();
  /** The holding each buffered result was sent under. */
  private readonly holdingOf = new WeakMap<AttemptResult, number>();
  /** Results the lease fence refused, since the start, by where their deliveries went. */
  readonly notRecorded: NotRecorded = { takenOver: 0, givenBack: 0, alreadyFinished: 0, gone: 0, unknown: 0 };
  private explaining: Promise<void> = Promise.resolve();

  private readonly clock: Clock;
  private readonly rollupShard: number;

  constructor(private readonly options: FlusherOptions) {
    this.clock = options.clock ?? realClock;
    // Drawn, not assigned: two workers of 1,024 shards rarely share one, and sharing costs only waits.
    this.rollupShard = options.rollupShard ?? randomInt(1024);
  }

  get pending(): number {
    return this.buffer.length;
  }

  /** Results not yet in the database: buffered, or in the flush being written. */
  get unrecorded(): number {
    return this.buffer.length + this.writing.size;
  }

  /** The deliveries whose results are not yet in the database: buffered, or being written. */
  unrecordedIds(): string[] {
    return [...this.buffer.map((result) => result.deliveryId), ...this.writing];
  }

  /** Whether the flush under way is writing this delivery's result (its outcome will say what became of it). */
  isWriting(deliveryId: string): boolean {
    return this.writing.has(deliveryId);
  }

  /**
   * `taking`: the holding of its delivery the attempt was sent under (LeaseBook.holding), so that
   * writing it ends that holding and not one taken since (the delivery claimed again for its retry
   * while this result waited).
   */
  add(result: AttemptResult, taking?: number): void {
    if (taking !== undefined) this.holdingOf.set(result, taking);
    this.buffer.push(result);
    // After a failed flush, the back-off timer it set decides when the next try goes out: results
    // arriving meanwhile must not hurry it (they did: a flush every 5 ms against a database that was
    // down, one per finished delivery).
    if (this.failures > 0) return;
    if (this.buffer.length >= this.options.maxResults) this.kick();
    else this.timer ??= this.clock.after(this.options.intervalMs, () => this.kick());
  }

  /**
   * The database answered something else (a claim after an outage): a flush waiting out its back-off
   * goes now. Left to its timer, it could wait up to 5 s more after the claims had resumed, and the
   * first result recorded after a PostgreSQL restart came 10 s late (test/worker/postgres-restart.test.ts).
   */
  retryNow(): void {
    if (this.failures > 0 && !this.running) this.kick();
  }

  /** Resolves when the flush under way, if any, has ended: what a test waits on instead of sleeping. */
  async whenIdle(): Promise<void> {
    await this.running;
  }

  private kick(): void {
    this.timer?.cancel();
    this.timer = null;
    if (this.running || this.buffer.length === 0) return;
    this.running = this.flushOnce().finally(() => {
      this.running = null;
      if (this.buffer.length > 0) {
        // After a failure, back off (100 ms doubling to 5 s) instead of hammering a database that is down.
        const delay = databaseBackoffMs(this.failures);
        if (this.failures > 0 && this.timer) {
          // Set by add() while this flush ran, for 5 ms from then: the back-off replaces it.
          this.timer.cancel();
          this.timer = null;
        }
        this.timer ??= this.clock.after(delay, () => this.kick());
      }
    });
  }

  private async flushOnce(): Promise<void> {
    const batch = this.buffer.splice(0, this.options.maxResults);
    for (const result of batch) this.writing.add(result.deliveryId);
    const started = performance.now();
    // What only an attempt row would keep is not sent for successes that get none.
    const keepsRow = (r: AttemptResult) => r.errorClass !== null || this.options.keepSuccessfulAttempts;
    // Fan-out batches whose first attempts' outcomes are all written (worker/leases.ts): their rows go
    // in this statement.
    const finishedBatches = this.options.finishedBatches?.() ?? [];
    try {
      const { rows } = await statements.recordResults.run(this.options.pool, {
        workerId: this.options.workerId,
        deliveryIds: batch.map((r) => r.deliveryId),
        states: batch.map((r) => r.state),
        nextAttemptAts: batch.map((r) => r.nextAttemptAt),
        startedAts: batch.map((r) => r.startedAt),
        durationsMs: batch.map((r) => r.durationMs),
        statusCodes: batch.map((r) => r.statusCode),
        errorClasses: batch.map((r) => r.errorClass),
        errorMessages: batch.map((r) => r.errorMessage),
        requestHeaders: batch.map((r) => (keepsRow(r) ? JSON.stringify(r.requestHeaders) : null)),
        responseHeaders: batch.map((r) =>
          keepsRow(r) && r.responseHeaders ? JSON.stringify(r.responseHeaders) : null,
        ),
        responseBodies: batch.map((r) => (keepsRow(r) && r.responseBody !== null ? stripNul(r.responseBody) : null)),
        responsesTruncated: batch.map((r) => r.responseTruncated),
        circuitFailureThreshold: this.options.circuit.failureThreshold,
        circuitOpenBaseMs: this.options.circuit.openBaseMs,
        circuitOpenMaxMs: this.options.circuit.openMaxMs,
        autoDisableAfterMs: this.options.autoDisableAfterMs,
        keepSuccessfulAttempts: this.options.keepSuccessfulAttempts,
        settledBatchIds: finishedBatches,
        rollupShard: this.rollupShard,
        attemptCounts: batch.map((r) => r.attemptCount),
        ...(this.options.unwrittenColumns ?? noneUnwritten)(batch.map((r) => r.deliveryId)),
      });
      this.failures = 0;
      this.options.onBatchesDeleted?.(finishedBatches);
      const outcome: FlushOutcome = rows[0] ?? { recorded: 0, succeeded: 0, dead: 0, endpoints: [], unrecorded: null };
      if (outcome.unrecorded?.length) {
        const unrecorded = outcome.unrecorded;
        this.explaining = this.explaining.then(() => this.explainUnrecorded(unrecorded));
      }
      const { metrics } = this.options;
      metrics.flushDuration.observe((performance.now() - started) / 1000);
      metrics.deliveriesFinished.inc({ state: 'succeeded' }, outcome.succeeded);
      metrics.deliveriesFinished.inc({ state: 'dead' }, outcome.dead);
      if (outcome.recorded < batch.length) metrics.lostLeases.inc({}, batch.length - outcome.recorded);
      const holding = new Map<string, number>();
      for (const result of batch) {
        const taking = this.holdingOf.get(result);
        if (taking !== undefined) holding.set(result.deliveryId, taking);
      }
      this.options.onFlushed?.(batch, outcome, holding);
    } catch (error) {
      // Keep the results and try again: while the process lives nothing is lost, and if the leases
      // run out first the fence in the statement makes the late write a no-op.
      this.failures++;
      this.buffer.unshift(...batch);
      this.options.metrics.databaseErrors.inc({ operation: 'flush' });
      this.options.log.error('flush failed; will retry', { error, results: batch.length, failures: this.failures });
    } finally {
      this.writing.clear();
    }
  }

  /**
   * Says where the deliveries went whose results the fence refused: "lost to another worker" was
   * logged when this worker had given them back itself, or had recorded them by a write whose answer
   * was lost.
   */
  private async explainUnrecorded(ids: string[]): Promise<void> {
    try {
      const { rows } = await statements.unrecordedResults.run(this.options.pool, { deliveryIds: ids });
      const where = rows[0]!;
      this.notRecorded.takenOver += where.taken_over;
      this.notRecorded.givenBack += where.given_back;
      this.notRecorded.alreadyFinished += where.already_finished;
      this.notRecorded.gone += where.gone;
      this.options.log.warn("results not recorded: their leases were no longer this worker's", {
        notRecorded: ids.length,
        takenOver: where.taken_over,
        givenBack: where.given_back,
        alreadyFinished: where.already_finished,
        gone: where.gone,
      });
    } catch (error) {
      this.notRecorded.unknown += ids.length;
      this.options.log.warn("results not recorded: their leases were no longer this worker's", {
        notRecorded: ids.length,
        error,
      });
    }
  }

  /**
   * Writes everything buffered; used on shutdown. Tries until `deadlineMs` has passed, at most a
   * second apart whatever back-off the flush had reached (up to 5 s, which could outlast the deadline
   * untried). Returns how many results are still not written, and says so in the log.
   */
  async drain(deadlineMs: number): Promise<number> {
    const until = this.clock.now() + deadlineMs;
    while (this.buffer.length > 0 || this.running) {
      if (this.running) {
        await this.running;
        continue;
      }
      this.timer?.cancel();
      this.timer = null;
      const pause = Math.min(databaseBackoffMs(this.failures, 1000), until - this.clock.now());
      if (pause > 0) await sleep(this.clock, pause);
      if (this.clock.now() >= until) break;
      this.kick();
    }
    this.timer?.cancel();
    this.timer = null;
    await this.explaining;
    const unwritten = this.buffer.length;
    if (unwritten > 0) {
      // Not silently: sent, and to be sent again (HOOKLINE_SHUTDOWN_GRACE bounds the wait for the database).
      this.options.log.error('stopped with results not recorded: the database did not take them before the deadline', {
        unwritten,
        whatHappens:
          'their deliveries stay leased until the lease runs out, then any worker sends them again (same webhook-id and body)',
      });
    }
    return unwritten;
  }
}

// Postgres text cannot hold U+0000, which a binary response body may contain.
function stripNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
