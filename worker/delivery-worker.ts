// One delivery worker process: the coordinator that builds its parts, starts them and stops them.
// The work itself is four stages, each a file with its invariant at the top:
//   take      claim-loop.ts (when and how much) + take-deliveries.ts (due deliveries, then fan-out)
//   dispatch  dispatcher.ts: the endpoint's gate, rate limit (endpoint-rate-limit.ts) and slots
//   send      deliver.ts: one signed HTTP attempt whose failure is data, never an exception
//   record    flush.ts: results written back in batches, fenced by the lease owner
// Beside them, services on timers (service.ts): lease renewal and the release of expired fan-out
// batch leases (lease-keeper.ts), giving back what waited too long for a connection, the once-a-minute
// maintenance (maintenance.ts), and background jobs (jobs/job-runner.ts). Each part that decides by time
// reads the one clock handed down from here (clock.ts; a test's ManualClock moves it).
// Shutdown is an explicit state machine (shutdown() below): running -> draining -> stopped. Round trips
// per delivery in steady state: 1/batch for the claim or fan-out, 1/flush for the write-back (tens to
// hundreds of results each), and an endpoint lookup only when the 2 s cache misses.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../lib/runtime/log';
import { CircuitGate } from './circuit-breaker';
import { ClaimLoop } from './claim-loop';
import { realClock, type Clock } from './clock';
import type { AttemptResult } from './deliver';
import { Dispatcher } from './dispatcher';
import { EndpointCache } from './endpoint-cache';
import { ResultFlusher, type FlushOutcome } from './flush';
import { HttpPools } from './http-pools';
import { JobRunner } from './jobs/job-runner';
import { LeaseKeeper } from './lease-keeper';
import { LeaseBook, type Holding } from './leases';
import { maintenanceService } from './maintenance';
import { startMetricsServer, WorkerMetrics, workerHealth } from './metrics';
import { PollingPresence } from './polling-presence';
import type { Service } from './service';
import { DeliverySource } from './take-deliveries';
import { Wake } from './wake';
import type { DeliveryWorkerOptions, StopSummary, WorkerState } from './worker-options';
import { closeWorkerConnections, createWorkerConnections, type WorkerConnections } from './worker-connections';

export type { DeliveryWorkerOptions, StopSummary, WorkerState } from './worker-options';

export class DeliveryWorker {
  readonly workerId: string;
  readonly metrics = new WorkerMetrics();
  /** Deliveries taken; attempts recorded as succeeded or failed; deliveries given back unsent. */
  readonly stats = { claimed: 0, succeeded: 0, failed: 0, released: 0 };
  private state: WorkerState = 'created';
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly connections: WorkerConnections;
  private readonly wake: Wake;
  private readonly leases: LeaseBook;
  private readonly leaseKeeper: LeaseKeeper;
  private readonly flusher: ResultFlusher;
  private readonly http: HttpPools;
  private readonly dispatcher: Dispatcher;
  private readonly claimLoop: ClaimLoop;
  /** Stopped when draining begins, in this order. */
  private readonly chores: Service[];
  /** Renews every lease this worker holds: runs until the final flush is written. */
  private readonly renewal: Service;
  private stopping: Promise<StopSummary> | null = null;
  private forced = false;
  private metricsHttp: Server | null = null;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const log = (this.log = (options.log ?? createLogger()).child({ component: 'worker', workerId: this.workerId }));
    const { workerId, metrics, stats } = this;
    const clock = (this.clock = options.clock ?? realClock);
    const { leaseSeconds } = options;
    const leases = (this.leases = new LeaseBook(leaseSeconds * 1000));
    const synchronousCommit = options.synchronousCommit ?? false;
    this.connections = createWorkerConnections(options.connectionString, { synchronousCommit });
    const { pool } = this.connections;
    const beingWritten = (id: string) => this.flusher.isWriting(id);
    this.leaseKeeper = new LeaseKeeper({ pool, workerId, leaseSeconds, leases, metrics, log, beingWritten, clock });
    this.wake = new Wake(options.connectionString, log, clock);
    this.http = new HttpPools(options.http, options.addressPolicy, options.resolve, { clock });
    this.flusher = new ResultFlusher({
      pool: this.connections.recordPool,
      workerId,
      intervalMs: options.flushIntervalMs,
      maxResults: options.flushMaxResults,
      circuit: options.circuit,
      autoDisableAfterMs: options.autoDisableAfterMs,
      keepSuccessfulAttempts: options.keepSuccessfulAttempts ?? false,
      rollupShard: options.rollupShard,
      log,
      metrics,
      finishedBatches: () => this.leases.finishedBatches(),
      onBatchesDeleted: (batchIds) => this.leases.batchesDeleted(batchIds),
      unwrittenColumns: (deliveryIds) => this.leases.unwrittenColumns(deliveryIds),
      onFlushed: (results, outcome, holding) => this.flushed(results, outcome, holding),
      clock,
    });
    this.dispatcher = new Dispatcher({
      pool,
      workerId,
      leaseSeconds,
      retrySchedule: options.retrySchedule,
      userAgent: options.userAgent ?? 'Hookline/0.1 (+https://www.standardwebhooks.com)',
      endpoints: new EndpointCache(pool, clock),
      gate: new CircuitGate(pool, options.http.timeoutMs, log, clock),
      http: this.http,
      leases: this.leases,
      leaseKeeper: this.leaseKeeper,
      flusher: this.flusher,
      metrics,
      stats,
      log,
      running: () => this.state === 'running',
      onFinished: () => this.claimLoop.roomFreed(),
      clock,
    });
    this.claimLoop = new ClaimLoop({
      concurrency: options.concurrency,
      batchSize: options.batchSize,
      pollIntervalMs: options.pollIntervalMs,
      maxUnrecorded: options.maxUnrecordedResults ?? Math.max(options.concurrency, 2 * options.flushMaxResults),
      pool,
      source: new DeliverySource(this.connections.takePool, workerId, leaseSeconds, leases, clock, () => [
        ...this.dispatcher.sendingOrWaitingIds(),
        ...this.flusher.unrecordedIds(),
      ]),
      dispatcher: this.dispatcher,
      flusher: this.flusher,
      leaseKeeper: this.leaseKeeper,
      presence: new PollingPresence(pool, workerId, log, clock),
      wake: this.wake,
      metrics,
      stats,
      log,
      clock,
    });
    this.chores = [this.claimLoop, ...this.backgroundServices()];
    this.renewal = this.leaseKeeper.renewal();
    metrics.collect = () => {
      metrics.inFlight.set({}, this.dispatcher.inFlight.size);
      metrics.held.set({}, this.dispatcher.held);
      metrics.unrecorded.set({}, this.flusher.unrecorded);
    };
  }

  /** The parts that run beside the loop while the worker takes work. */
  private backgroundServices(): Service[] {
    const { options, log, clock } = this;
    const services: Service[] = [
      this.dispatcher.staleWaitingRelease(),
      this.leaseKeeper.expiredBatchRelease(() => this.wake.signal()),
    ];
    const everyMs = options.maintenanceIntervalMs ?? 60_000;
    if (everyMs > 0) {
      const { maintenancePool: pool } = this.connections;
      const retention = options.retention ?? null;
      services.push(maintenanceService({ pool, metrics: this.metrics, retention, log, everyMs, clock }));
    }
    // Background jobs: replay by filter, recover, backfill. Stopping hands a running job back.
    if (options.jobs !== false) {
      const { connectionString, leaseSeconds } = options;
      const jobLog = log.child({ component: 'jobs' });
      const { workerId } = this;
      services.push(new JobRunner({ connectionString, workerId, log: jobLog, leaseSeconds, clock, ...options.jobs }));
    }
    return services;
  }

  get currentState(): WorkerState {
    return this.state;
  }

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error(`worker already ${this.state}`);
    this.state = 'running';
    const { tracerProvider, propagateTraceContext } = this.options;
    if (tracerProvider) await this.dispatcher.traceAttempts(tracerProvider, propagateTraceContext ?? true);
    if (this.options.metricsServer) {
      this.metricsHttp = await startMetricsServer(this.metrics, {
        ...this.options.metricsServer,
        log: this.log,
        health: workerHealth(() => this.state, this.connections.maintenancePool),
      });
    }
    await this.wake.listen();
    for (const service of [...this.chores, this.renewal]) await service.start();
    this.log.info('worker started', { concurrency: this.options.concurrency, batchSize: this.options.batchSize });
  }

  private flushed(results: AttemptResult[], outcome: FlushOutcome, holding: Holding): void {
    // Written (or refused by the fence): the holdings they were sent under are no longer this worker's
    // to renew. Not by id: a delivery taken again since (its retry claimed while this result waited for
    // a write whose answer was lost) is a new holding, and stays.
    this.leases.drop(holding);
    // Counted as recorded, not as sent: a result the fence refused is another worker's to tell.
    this.stats.succeeded += outcome.succeeded;
    this.stats.failed += outcome.recorded - outcome.succeeded;
    // The loop may be waiting for recorded results (backpressure).
    this.wake.signal();
    this.dispatcher.endpointsChanged(outcome.endpoints);
  }

  /**
   * Draining: stops claiming (and every chore but lease renewal), releases deliveries still waiting for
   * an endpoint slot without spending an attempt, waits for in-flight ones (up to `deadlineMs`),
   * flushes (its leases renewed until written), and closes connections. With `force`, or once the
   * deadline passes, in-flight deliveries are released too: another worker sends them again. Calling
   * it again while it runs (a second signal) with `force` cuts the wait short.
   */
  stop(options: { deadlineMs?: number; force?: boolean } = {}): Promise<StopSummary> {
    if (options.force) this.forced = true;
    this.stopping ??= this.shutdown(options.deadlineMs ?? 10_000);
    return this.stopping;
  }

  private async shutdown(deadlineMs: number): Promise<StopSummary> {
    const deadline = this.clock.now() + deadlineMs;
    if (this.state === 'created') {
      this.state = 'stopped';
      await closeWorkerConnections(this.connections);
      return { ...this.stats, abandoned: 0, unwritten: 0, notRecorded: this.flusher.notRecorded };
    }
    this.state = 'draining';
    this.log.info('draining', { inFlight: this.dispatcher.inFlight.size, waiting: this.dispatcher.waiting });
    for (const service of this.chores) await service.stop();
    await this.dispatcher.releaseAllWaiting();
    await this.dispatcher.settleInFlight(deadline, () => this.forced);
    const abandoned = this.dispatcher.abandonInFlight();
    const unwritten = await this.flusher.drain(Math.max(1000, deadline - this.clock.now()));
    const dueAt = new Date(this.clock.now());
    await this.dispatcher.release(
      abandoned.map((id) => ({ id, dueAt })),
      'shutdown',
    );
    await this.leaseKeeper.deleteFinishedBatches();
    await this.renewal.stop();
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
