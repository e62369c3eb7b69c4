// The delivery loop of one worker process: take a batch sized to the free slots (take-deliveries.ts)
// -> let each through its endpoint's gate (enabled, circuit-breaker.ts) -> send it on a connection
// slot of its endpoint (endpoint-slots.ts, deliver.ts) -> buffer the result -> record results in
// batches (flush.ts). Beside the loop, on timers: lease renewal and giving back what waited too long
// (lease-keeper.ts), and the once-a-minute maintenance (maintenance.ts).
// Shutdown is an explicit state machine: running -> draining (no more claims; deliveries waiting
// for an endpoint slot are released without spending an attempt; in-flight ones finish; final
// flush) -> stopped. stop({ force: true }) (a second signal, or the deadline) releases whatever is
// still in flight instead of waiting for it.
// Round trips per delivery in steady state: 1/batch for the claim or fan-out, 1/flush for the
// write-back (tens to hundreds of results each), and an endpoint lookup only when the 2 s cache misses.
//
// What this class keeps, and its invariants:
//   held      deliveries taken and not yet handed to the flusher or released: in flight + waiting for
//             a slot + being dispatched. held <= concurrency, so a worker never leases more than it can send.
//   inFlight  deliveries whose HTTP attempt is running; each holds one slot of its endpoint.
//   abandoned in flight when a forced stop released them: their results are dropped, never recorded.
//   unrecorded results (in the flusher) <= maxUnrecorded while claiming: backpressure, so a slow
//             database slows sending instead of letting leases run out and deliveries go out twice.
import { randomBytes, randomInt } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../lib/runtime/log';
import type { AddressPolicyOptions } from '../lib/domain/webhooks/address-policy';
import { CircuitGate, type CircuitSettings } from './circuit-breaker';
import { deliver, type AttemptResult, type ClaimedDelivery, type EndpointSettings } from './deliver';
import { EndpointCache } from './endpoint-cache';
import { EndpointSlots } from './endpoint-slots';
import { ResultFlusher, type FlushOutcome, type NotRecorded } from './flush';
import { HttpPools, type HttpLimits } from './http-pools';
import { LeaseKeeper, type Release } from './lease-keeper';
import { LeaseBook } from './leases';
import { JobRunner, type JobRunnerOptions } from './jobs/job-runner';
import { runMaintenance, type RetentionOptions } from './maintenance';
import { startMetricsServer, WorkerMetrics } from './metrics';
import { BUSY_POLL_MS, BUSY_WINDOW_MS, PollingPresence } from './polling-presence';
import type { Resolver } from './resolve-and-pin';
import { sql } from './statements';
import { DeliverySource, type TakenRow } from './take-deliveries';
import { Wake } from './wake';
import { closeWorkerConnections, createWorkerConnections, type WorkerConnections } from './worker-connections';

export interface DeliveryWorkerOptions {
  connectionString: string;
  workerId?: string;
  /** Deliveries this worker holds at once (claimed and not yet recorded), across all endpoints. */
  concurrency: number;
  batchSize: number;
  leaseSeconds: number;
  pollIntervalMs: number;
  flushIntervalMs: number;
  flushMaxResults: number;
  /**
   * Backpressure: no new claims while this many results wait to be recorded. Bounds how far
   * recording can trail sending, so a slow database slows sending instead of letting leases run out.
   * Default: the larger of the concurrency and two flushes.
   */
  maxUnrecordedResults?: number;
  retrySchedule: readonly number[];
  /** Write an attempt row for successes too, with headers and body (default: failures only). */
  keepSuccessfulAttempts?: boolean;
  /** Whether the worker's commits wait for the WAL flush (worker/worker-connections.ts); default false. */
  synchronousCommit?: boolean;
  /** This worker's rollup rows, 0-1023 (default: drawn at random; migration 20261124152000_rollup_shards). */
  rollupShard?: number;
  http: HttpLimits;
  addressPolicy: AddressPolicyOptions;
  /** The circuit breaker's settings; their defaults live in lib/runtime/env.ts (HOOKLINE_CIRCUIT_*). */
  circuit: CircuitSettings;
  /** Disable an endpoint after a failure streak this long; 0 = never (HOOKLINE_AUTO_DISABLE_AFTER). */
  autoDisableAfterMs: number;
  /** Retention run by one worker once per maintenance interval; null = keep everything. */
  retention?: RetentionOptions | null;
  /** Queue depth sample, gauges and retention; default one minute, 0 = never. */
  maintenanceIntervalMs?: number;
  /** Background jobs (worker/jobs/job-runner.ts): batch settings, or false for a worker that runs none. */
  jobs?: Pick<JobRunnerOptions, 'batchSize' | 'batchPauseMs' | 'pollIntervalMs'> | false;
  /** Serve Prometheus metrics at http://host:port/metrics; null = no server. */
  metricsServer?: { port: number; host: string } | null;
  resolve?: Resolver;
  log?: Logger;
  userAgent?: string;
}

export type WorkerState = 'created' | 'running' | 'draining' | 'stopped';

export interface StopSummary {
  /** Deliveries taken (claimed or fanned out) since the start. */
  claimed: number;
  /** Attempts recorded as succeeded, and as failed (retrying or dead). */
  succeeded: number;
  failed: number;
  /** Deliveries given back to the queue without spending an attempt. */
  released: number;
  /** In flight when a forced stop (or the deadline) gave them back; their results were dropped. */
  abandoned: number;
  /** Results never written: the database did not answer before the deadline. Sent again later. */
  unwritten: number;
  /** Results the lease fence refused, by where their deliveries had gone. */
  notRecorded: NotRecorded;
}

interface Queued {
  delivery: ClaimedDelivery;
  endpoint: EndpointSettings;
}

// A delivery of a disabled endpoint goes back to the queue for this long without spending an
// attempt; enabling the endpoint (or a replay) makes it due again.
const DISABLED_ENDPOINT_RECHECK_MS = 5 * 60_000;

export class DeliveryWorker {
  readonly workerId: string;
  readonly metrics = new WorkerMetrics();
  /** Deliveries taken; attempts recorded as succeeded or failed; deliveries given back unsent. */
  readonly stats = { claimed: 0, succeeded: 0, failed: 0, released: 0 };
  private state: WorkerState = 'created';
  private readonly log: Logger;
  private readonly connections: WorkerConnections;
  private readonly wake: Wake;
  private readonly source: DeliverySource;
  private readonly gate: CircuitGate;
  private readonly leases: LeaseBook;
  private readonly leaseKeeper: LeaseKeeper;
  private readonly flusher: ResultFlusher;
  private readonly http: HttpPools;
  private readonly endpoints: EndpointCache;
  private readonly presence: PollingPresence;
  /** Connections per endpoint, and the taken deliveries waiting for one. */
  private readonly slots = new EndpointSlots<Queued>();
  private held = 0;
  private readonly inFlight = new Map<string, ClaimedDelivery>();
  private readonly abandoned = new Set<string>();
  /** Claim when at least this many slots are free (one claim per freed slot would cost a round trip each). */
  private readonly claimThreshold: number;
  private readonly maxUnrecorded: number;
  /** At most this many taken deliveries wait for an endpoint connection. */
  private readonly maxWaiting: number;
  private lastFoundWorkAt = 0;
  private loopDone: Promise<void> | null = null;
  private stopping: Promise<StopSummary> | null = null;
  private forced = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private maintenanceRunning = false;
  private jobRunner: JobRunner | null = null; // background jobs (worker/jobs/job-runner.ts)
  private metricsHttp: Server | null = null;

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.leaseSeconds < 2) {
      // Renewed every third of a lease: under 2 s, one slow renewal round trip would lose it.
      throw new Error(`the lease must be at least 2 seconds, got ${options.leaseSeconds}`);
    }
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.log = (options.log ?? createLogger()).child({ component: 'worker', workerId: this.workerId });
    this.leases = new LeaseBook(options.leaseSeconds * 1000);
    this.connections = createWorkerConnections(options.connectionString, {
      synchronousCommit: options.synchronousCommit ?? false,
    });
    const { pool } = this.connections;
    this.leaseKeeper = new LeaseKeeper(pool, this.workerId, options.leaseSeconds, this.leases, this.metrics, this.log);
    this.source = new DeliverySource(pool, this.workerId, options.leaseSeconds, this.leases);
    this.gate = new CircuitGate(pool, options.http.timeoutMs, this.log);
    this.wake = new Wake(options.connectionString, this.log);
    this.http = new HttpPools(options.http, options.addressPolicy, options.resolve);
    this.endpoints = new EndpointCache(pool);
    this.presence = new PollingPresence(pool, this.workerId, this.log);
    this.flusher = new ResultFlusher({
      pool: this.connections.recordPool,
      workerId: this.workerId,
      intervalMs: options.flushIntervalMs,
      maxResults: options.flushMaxResults,
      circuit: options.circuit,
      autoDisableAfterMs: options.autoDisableAfterMs,
      keepSuccessfulAttempts: options.keepSuccessfulAttempts ?? false,
      // Drawn, not assigned: two workers of 1,024 shards rarely share one, and sharing costs only waits.
      rollupShard: options.rollupShard ?? randomInt(1024),
      log: this.log,
      onFlushed: (results, outcome, durationMs) => this.flushed(results, outcome, durationMs),
      onError: () => this.metrics.databaseErrors.inc({ operation: 'flush' }),
    });
    // Wait until a quarter of a batch is free (the loop still claims at once when it holds nothing).
    this.claimThreshold = Math.max(1, Math.floor(Math.min(options.batchSize, options.concurrency) / 4));
    this.maxUnrecorded = options.maxUnrecordedResults ?? Math.max(options.concurrency, 2 * options.flushMaxResults);
    // At most half a batch (128 by default) waiting for a connection: with one endpoint at 10
    // connections answering in 1 ms that is ~13 ms of work, enough to keep them busy between claims,
    // and all that a worker frozen mid-batch holds back besides its in-flight requests.
    this.maxWaiting = Math.max(this.claimThreshold * 2, 16);
    this.metrics.collect = () => {
      this.metrics.inFlight.set({}, this.inFlight.size);
      this.metrics.held.set({}, this.held);
      this.metrics.unrecorded.set({}, this.flusher.unrecorded);
    };
  }

  get currentState(): WorkerState {
    return this.state;
  }

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error(`worker already ${this.state}`);
    this.state = 'running';
    if (this.options.metricsServer) {
      this.metricsHttp = await startMetricsServer(this.metrics, { ...this.options.metricsServer, log: this.log });
    }
    await this.wake.listen();
    this.loopDone = this.loop();
    const running = () => this.state === 'running';
    // Deliveries waiting for a connection to a slow endpoint must not outlive their lease (another
    // worker would send them too): past half the lease they go back to the queue.
    this.every(1000, () => this.releaseStaleWaiting());
    // Leases are short and renewed while this process runs (worker/sql/renew-leases.sql).
    this.every(this.leaseKeeper.renewEveryMs, () => (this.state === 'stopped' ? undefined : this.leaseKeeper.renew()));
    // First attempts whose worker died run under a queue row whose lease ran out: every worker looks
    // for those every 2 s, so they wait at most a lease and 2 s, as claimed ones do.
    this.every(2000, async () => {
      if (running() && (await this.leaseKeeper.releaseExpiredMessageLeases()) > 0) this.wake.signal();
    });
    const maintenanceMs = this.options.maintenanceIntervalMs ?? 60_000;
    if (maintenanceMs > 0) {
      this.every(maintenanceMs, () => this.maintain());
      this.timers.push(setTimeout(() => void this.maintain(), Math.min(1000, maintenanceMs)));
    }
    // Background jobs: replay by filter, recover, backfill (worker/jobs/job-runner.ts).
    if (this.options.jobs !== false) {
      this.jobRunner = new JobRunner({
        connectionString: this.options.connectionString,
        workerId: this.workerId,
        log: this.log.child({ component: 'jobs' }),
        leaseSeconds: this.options.leaseSeconds,
        ...this.options.jobs,
      });
      this.jobRunner.start();
    }
    this.log.info('worker started', { concurrency: this.options.concurrency, batchSize: this.options.batchSize });
  }

  private every(intervalMs: number, chore: () => Promise<void> | undefined): void {
    this.timers.push(setInterval(() => void chore(), intervalMs));
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (this.state === 'running') {
      const unrecorded = this.flusher.unrecorded;
      if (unrecorded >= this.maxUnrecorded) {
        // Backpressure: results are arriving faster than the database records them. Sending more
        // would only grow the backlog until leases run out and other workers send the same
        // deliveries again; wait for a flush instead (it signals the wake).
        this.metrics.backpressureWaits.inc({});
        const wasListening = this.wake.listening;
        await this.wake.wait(this.options.pollIntervalMs);
        // The LISTEN connection coming back means the database is: the results go now, not when
        // the flush's back-off (up to 5 s) runs out.
        if (!wasListening && this.wake.listening) this.flusher.retryNow();
        continue;
      }
      // Deliveries taken but waiting for a connection to their endpoint (its max_concurrency) are
      // held without being sent, and a frozen worker would hold them too: keep that set small.
      const limit = Math.min(
        this.options.concurrency - this.held,
        this.options.batchSize,
        this.maxUnrecorded - unrecorded,
        this.maxWaiting - this.slots.waiting,
      );
      if (limit < this.claimThreshold && this.held > 0) {
        await this.wake.wait(this.options.pollIntervalMs);
        continue;
      }
      let taken: TakenRow[];
      let full: boolean;
      const started = performance.now();
      try {
        let messagesFannedOut: number;
        ({ rows: taken, full, messagesFannedOut } = await this.source.take(limit));
        this.metrics.claimDuration.observe((performance.now() - started) / 1000);
        if (messagesFannedOut > 0) this.metrics.fannedOut.inc({}, messagesFannedOut);
        if (failures > 0) {
          this.log.info('database reachable again; claiming', { after: failures });
          this.flusher.retryNow();
          // The failed claim or fan-out may have committed with its answer lost: awaited, before the
          // next claim (lease-keeper.ts says why).
          await this.leaseKeeper.releaseStrays();
        }
        failures = 0;
      } catch (error) {
        // The database is down or restarting: back off (100 ms doubling to 5 s), never exit.
        failures++;
        this.metrics.databaseErrors.inc({ operation: 'claim' });
        const delay = Math.min(5000, 100 * 2 ** (failures - 1));
        this.log.error('claim failed; retrying', { error, failures, retryInMs: delay });
        await this.backOff(delay);
        continue;
      }
      // Busy (work found in the last second): poll every few ms and tell producers no NOTIFY is
      // needed, before sending what was found (a producer's next event then skips its NOTIFY).
      // Idle: sleep on LISTEN, with producers notifying again (worker/polling-presence.ts).
      const now = Date.now();
      if (taken.length > 0) this.lastFoundWorkAt = now;
      const busy = now - this.lastFoundWorkAt < BUSY_WINDOW_MS;
      if (busy) await this.presence.renew();
      if (taken.length > 0) {
        this.held += taken.length;
        this.stats.claimed += taken.length;
        if (this.state !== 'running') {
          // Stopped while the claim was in flight: hand the rows straight back.
          await this.release(
            taken.map((row) => ({ id: row.id, dueAt: new Date() })),
            'shutdown',
          );
          break;
        }
        await this.dispatch(taken);
      }
      if (full) continue;
      if (busy) {
        await this.wake.wait(BUSY_POLL_MS);
        continue;
      }
      if (await this.presence.end()) continue;
      await this.wake.wait(await this.idleDelay());
    }
  }

  /**
   * Sleeps out a claim back-off. Every delivery that finishes meanwhile signals the wake; left to
   * end the wait, those turned a 4 s outage into ~40 failed claims per worker (one per finished
   * delivery, test/worker/postgres-restart.test.ts) instead of 6. The LISTEN connection coming back
   * means the database is up again, and ends the wait early; so does a stop.
   */
  private async backOff(delayMs: number): Promise<void> {
    const until = Date.now() + delayMs;
    const wasListening = this.wake.listening;
    while (this.state === 'running' && Date.now() < until) {
      await this.wake.wait(until - Date.now());
      if (!wasListening && this.wake.listening) return;
    }
  }

  /** How long to sleep when nothing is due: until the next scheduled retry, at most one poll interval. */
  private async idleDelay(): Promise<number> {
    try {
      const { rows } = await this.connections.pool.query<{ next_due_at: Date | null }>(
        // Sent as text, not prepared: a statement without parameters keeps its first (generic) plan
        // whatever plan_cache_mode says, and one made while deliveries was empty could scan it whole
        // on every idle poll once it holds millions of rows.
        sql.nextDueAt,
      );
      const nextDue = rows[0]?.next_due_at;
      if (!nextDue) return this.options.pollIntervalMs;
      return Math.max(1, Math.min(this.options.pollIntervalMs, nextDue.getTime() - Date.now() + 1));
    } catch {
      return this.options.pollIntervalMs;
    }
  }

  /** Sends what was taken, or gives it back: deleted endpoint, disabled endpoint, open circuit. */
  private async dispatch(rows: TakenRow[]): Promise<void> {
    let endpoints: Map<string, EndpointSettings>;
    try {
      endpoints = await this.endpoints.get(rows.map((row) => row.endpoint_id));
    } catch (error) {
      this.log.error('loading endpoints failed; releasing the batch', { error });
      await this.release(
        rows.map((row) => ({ id: row.id, dueAt: new Date(Date.now() + 1000) })),
        'database_error',
      );
      return;
    }
    const disabled: Release[] = [];
    const orphans: string[] = [];
    const gated = [];
    for (const row of rows) {
      const endpoint = endpoints.get(row.endpoint_id);
      if (!endpoint) {
        // The endpoint was deleted with its deliveries; this one was written by a fan-out racing the
        // delete, and goes too.
        this.held--;
        this.leases.settle(row.id);
        this.leases.drop([row.id]);
        orphans.push(row.id);
      } else if (!row.endpoint_enabled) {
        disabled.push({ id: row.id, dueAt: new Date(Date.now() + DISABLED_ENDPOINT_RECHECK_MS) });
      } else {
        gated.push({
          delivery: toClaimedDelivery(row),
          endpoint,
          circuitState: row.circuit_state,
          circuitOpenUntil: row.circuit_open_until,
        });
      }
    }
    const { send, wait } = await this.gate.sort(gated);
    for (const { delivery, endpoint } of send) this.enqueue(delivery, endpoint);
    await this.release(disabled, 'endpoint_disabled');
    await this.release(wait, 'circuit_open');
    if (orphans.length > 0) {
      // If this fails, the rows come back when their lease ends and are tried again.
      await this.connections.pool
        .query(sql.deleteOrphanDeliveries, [this.workerId, orphans])
        .catch((error: unknown) => {
          this.log.warn('deleting deliveries of a deleted endpoint failed', { error, deliveries: orphans.length });
        });
    }
  }

  private enqueue(delivery: ClaimedDelivery, endpoint: EndpointSettings): void {
    if (this.slots.acquireOrWait(endpoint.id, endpoint.maxConcurrency, { delivery, endpoint })) {
      this.startDelivery(delivery, endpoint);
    }
  }

  /** Sends a delivery on a slot of its endpoint that it already holds. */
  private startDelivery(delivery: ClaimedDelivery, endpoint: EndpointSettings): void {
    if (!this.leaseKeeper.safeToSend(delivery.id)) {
      // Its lease may end before the next renewal (it waited for a connection while this process
      // stalled, or a renewal failed): another worker could take it over mid-request. Give it back.
      void this.release([{ id: delivery.id, dueAt: new Date() }], 'lease_ending');
      this.freeSlot(endpoint);
      return;
    }
    this.inFlight.set(delivery.id, delivery);
    void deliver(delivery, endpoint, {
      http: this.http,
      retrySchedule: this.options.retrySchedule,
      userAgent: this.options.userAgent ?? 'Hookline/0.1 (+https://www.standardwebhooks.com)',
    }).then((result) => this.finish(delivery, endpoint, result));
  }

  private finish(delivery: ClaimedDelivery, endpoint: EndpointSettings, result: AttemptResult): void {
    if (this.abandoned.delete(delivery.id)) return;
    this.inFlight.delete(delivery.id);
    this.held--;
    this.metrics.attempts.inc({
      outcome: result.errorClass === null ? 'succeeded' : 'failed',
      error_class: result.errorClass ?? '',
    });
    this.metrics.attemptDuration.observe(result.durationMs / 1000);
    // Still held (and renewed) until the flush has written it. The last first attempt of its message
    // takes the message's queue row with it when recorded.
    this.flusher.add(result, this.leases.settle(delivery.id));
    this.freeSlot(endpoint);
    if (
      this.options.concurrency - this.held >= this.claimThreshold &&
      this.slots.waiting < this.maxWaiting - this.claimThreshold
    )
      this.wake.signal();
  }

  /** A connection to the endpoint came free: the next delivery waiting for one takes it. */
  private freeSlot(endpoint: EndpointSettings): void {
    const next = this.slots.release(endpoint.id, this.state === 'running');
    if (next) this.startDelivery(next.delivery, next.endpoint);
  }

  private flushed(results: AttemptResult[], outcome: FlushOutcome, durationMs: number): void {
    // Written (or refused by the fence): no longer this worker's to renew.
    this.leases.drop(results.map((result) => result.deliveryId));
    // Counted as recorded, not as sent: a result the fence refused is another worker's to tell.
    this.stats.succeeded += outcome.succeeded;
    this.stats.failed += outcome.recorded - outcome.succeeded;
    this.metrics.flushDuration.observe(durationMs / 1000);
    // The loop may be waiting for recorded results (backpressure).
    this.wake.signal();
    this.metrics.deliveriesFinished.inc({ state: 'succeeded' }, outcome.succeeded);
    this.metrics.deliveriesFinished.inc({ state: 'dead' }, outcome.dead);
    if (outcome.recorded < results.length) this.metrics.lostLeases.inc({}, results.length - outcome.recorded);
    // A circuit that just opened (or an endpoint just disabled) stops this worker's queue for it
    // too: what waits for a connection goes back without spending attempts.
    for (const endpoint of outcome.endpoints) {
      if (endpoint.circuitState === 'closed' && endpoint.enabled) continue;
      const queue = this.slots.takeWaiting(endpoint.id);
      if (queue.length === 0) continue;
      this.log.warn(endpoint.enabled ? 'circuit opened' : 'endpoint disabled', { endpointId: endpoint.id });
      void this.release(
        queue.map(({ delivery }) => ({ id: delivery.id, dueAt: new Date() })),
        endpoint.enabled ? 'circuit_open' : 'endpoint_disabled',
      );
    }
  }

  private async releaseStaleWaiting(): Promise<void> {
    const stale = this.slots.takeWaitingSince(Date.now() - (this.options.leaseSeconds * 1000) / 2);
    await this.release(
      stale.map(({ delivery }) => ({ id: delivery.id, dueAt: new Date() })),
      'waited_too_long',
    );
  }

  /** Gives held deliveries back to the queue without spending an attempt. */
  private async release(deliveries: Release[], reason: string): Promise<void> {
    if (deliveries.length === 0) return;
    this.held -= deliveries.length;
    this.stats.released += deliveries.length;
    this.metrics.released.inc({ reason }, deliveries.length);
    await this.leaseKeeper.release(deliveries);
  }

  /** The once-a-minute chores; skipped while the previous run is still going. */
  private async maintain(): Promise<void> {
    if (this.maintenanceRunning || this.state !== 'running') return;
    this.maintenanceRunning = true;
    try {
      await runMaintenance({
        pool: this.connections.maintenancePool,
        metrics: this.metrics,
        retention: this.options.retention ?? null,
        log: this.log,
      });
    } finally {
      this.maintenanceRunning = false;
    }
  }

  /**
   * Stops claiming, releases deliveries still waiting for an endpoint slot, waits for in-flight ones
   * (up to `deadlineMs`), flushes, and closes connections. With `force`, or once the deadline
   * passes, in-flight deliveries are released too: they will be sent again by another worker.
   * Calling it again while it runs (a second signal) with `force` cuts the wait short.
   */
  stop(options: { deadlineMs?: number; force?: boolean } = {}): Promise<StopSummary> {
    if (options.force) this.forced = true;
    this.stopping ??= this.shutdown(options.deadlineMs ?? 10_000);
    return this.stopping;
  }

  private async shutdown(deadlineMs: number): Promise<StopSummary> {
    const deadline = Date.now() + deadlineMs;
    const wasRunning = this.state === 'running';
    if (this.state === 'created') {
      this.state = 'stopped';
      await closeWorkerConnections(this.connections);
      return { ...this.stats, abandoned: 0, unwritten: 0, notRecorded: this.flusher.notRecorded };
    }
    this.state = 'draining';
    for (const timer of this.timers) clearInterval(timer);
    this.wake.signal();
    this.log.info('draining', { inFlight: this.inFlight.size, waiting: this.slots.waiting });
    if (wasRunning) await this.loopDone;
    await this.jobRunner?.stop(); // hands a running job back to the queue (worker/jobs/job-runner.ts)
    // Other workers may be asleep: producers must wake them from now on.
    await this.presence.end();
    const queued = this.slots.takeWaiting().map(({ delivery }) => ({ id: delivery.id, dueAt: new Date() }));
    await this.release(queued, 'shutdown');
    while (!this.forced && this.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const abandoned = [...this.inFlight.keys()];
    for (const id of abandoned) this.abandoned.add(id);
    this.inFlight.clear();
    const unwritten = await this.flusher.drain(Math.max(1000, deadline - Date.now()));
    if (unwritten > 0) {
      // Not silently: the deliveries were sent, and will be sent again (lib/runtime/env.ts's
      // HOOKLINE_SHUTDOWN_GRACE bounds how long a stop waits for the database).
      this.log.error('stopped with results not recorded: the database did not take them before the deadline', {
        unwritten,
        whatHappens:
          'their deliveries stay leased until the lease runs out, then any worker sends them again (same webhook-id and body)',
      });
    }
    await this.release(
      abandoned.map((id) => ({ id, dueAt: new Date() })),
      'shutdown',
    );
    this.state = 'stopped';
    await Promise.all([
      this.wake.close(),
      abandoned.length > 0 ? this.http.destroy() : this.http.close(),
      new Promise<void>((resolve) => (this.metricsHttp ? this.metricsHttp.close(() => resolve()) : resolve())),
    ]);
    await closeWorkerConnections(this.connections);
    const summary: StopSummary = {
      ...this.stats,
      abandoned: abandoned.length,
      unwritten,
      notRecorded: this.flusher.notRecorded,
    };
    this.log.info('stopped', { ...summary });
    return summary;
  }
}

function toClaimedDelivery(row: TakenRow): ClaimedDelivery {
  return {
    id: row.id,
    appId: row.app_id,
    endpointId: row.endpoint_id,
    messageId: row.message_id,
    attemptCount: row.attempt_count,
    eventType: row.event_type,
    createdAt: row.created_at,
    payload: row.payload,
  };
}
