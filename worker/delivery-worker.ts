// One delivery worker process: the coordinator that builds its parts, starts them and stops them.
// The work itself is four stages, each a file with its invariant at the top:
//   take      claim-loop.ts (when and how much) + take-deliveries.ts (due deliveries, then fan-out)
//   dispatch  dispatcher.ts: the endpoint's gate, rate limit (endpoint-rate-limit.ts) and slots
//   send      deliver.ts: one signed HTTP attempt whose failure is data, never an exception
//   record    flush.ts: results written back in batches, fenced by the lease owner
// Beside them, services on timers (service.ts): lease renewal and the release of expired fan-out
// batch leases (lease-keeper.ts), giving back what waited too long for a connection, the once-a-minute
// maintenance (maintenance.ts), and background jobs (jobs/job-runner.ts).
// Shutdown is an explicit state machine (shutdown() below): running -> draining -> stopped. Round trips
// per delivery in steady state: 1/batch for the claim or fan-out, 1/flush for the write-back (tens to
// hundreds of results each), and an endpoint lookup only when the 2 s cache misses.
import { randomBytes, randomInt } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../lib/runtime/log';
import { CircuitGate } from './circuit-breaker';
import { ClaimLoop } from './claim-loop';
import type { AttemptResult } from './deliver';
import { Dispatcher } from './dispatcher';
import { EndpointCache } from './endpoint-cache';
import { ResultFlusher, type FlushOutcome } from './flush';
import { HttpPools } from './http-pools';
import { JobRunner } from './jobs/job-runner';
import { LeaseKeeper } from './lease-keeper';
import { LeaseBook } from './leases';
import { maintenanceService } from './maintenance';
import { startMetricsServer, WorkerMetrics } from './metrics';
import { checkReadiness } from '../lib/database/health';
import { PollingPresence } from './polling-presence';
import { PeriodicChore, type Service } from './service';
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
    if (options.leaseSeconds < 2) {
      // Renewed every third of a lease: under 2 s, one slow renewal round trip would lose it.
      throw new Error(`the lease must be at least 2 seconds, got ${options.leaseSeconds}`);
    }
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const log = (this.log = (options.log ?? createLogger()).child({ component: 'worker', workerId: this.workerId }));
    const { workerId, metrics, stats } = this;
    this.leases = new LeaseBook(options.leaseSeconds * 1000);
    this.connections = createWorkerConnections(options.connectionString, {
      synchronousCommit: options.synchronousCommit ?? false,
    });
    const { pool } = this.connections;
    const writing = (id: string) => this.flusher.isWriting(id);
    this.leaseKeeper = new LeaseKeeper(pool, workerId, options.leaseSeconds, this.leases, metrics, log, writing);
    this.wake = new Wake(options.connectionString, log);
    this.http = new HttpPools(options.http, options.addressPolicy, options.resolve);
    this.flusher = new ResultFlusher({
      pool: this.connections.recordPool,
      workerId,
      intervalMs: options.flushIntervalMs,
      maxResults: options.flushMaxResults,
      circuit: options.circuit,
      autoDisableAfterMs: options.autoDisableAfterMs,
      keepSuccessfulAttempts: options.keepSuccessfulAttempts ?? false,
      // Drawn, not assigned: two workers of 1,024 shards rarely share one, and sharing costs only waits.
      rollupShard: options.rollupShard ?? randomInt(1024),
      log,
      metrics,
      finishedBatches: () => this.leases.finishedBatches(),
      onBatchesDeleted: (batchIds) => this.leases.batchesDeleted(batchIds),
      onFlushed: (results, outcome) => this.flushed(results, outcome),
    });
    this.dispatcher = new Dispatcher({
      pool,
      workerId,
      leaseSeconds: options.leaseSeconds,
      retrySchedule: options.retrySchedule,
      userAgent: options.userAgent ?? 'Hookline/0.1 (+https://www.standardwebhooks.com)',
      endpoints: new EndpointCache(pool),
      gate: new CircuitGate(pool, options.http.timeoutMs, log),
      http: this.http,
      leases: this.leases,
      leaseKeeper: this.leaseKeeper,
      flusher: this.flusher,
      metrics,
      stats,
      log,
      running: () => this.state === 'running',
      onFinished: () => this.claimLoop.roomFreed(),
    });
    this.claimLoop = new ClaimLoop({
      concurrency: options.concurrency,
      batchSize: options.batchSize,
      pollIntervalMs: options.pollIntervalMs,
      maxUnrecorded: options.maxUnrecordedResults ?? Math.max(options.concurrency, 2 * options.flushMaxResults),
      pool,
      source: new DeliverySource(this.connections.takePool, workerId, options.leaseSeconds, this.leases),
      dispatcher: this.dispatcher,
      flusher: this.flusher,
      leaseKeeper: this.leaseKeeper,
      presence: new PollingPresence(pool, workerId, log),
      wake: this.wake,
      metrics,
      stats,
      log,
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
    const { options, log } = this;
    const services: Service[] = [
      new PeriodicChore('release of deliveries that waited too long', 1000, () =>
        this.dispatcher.releaseStaleWaiting(),
      ),
      // First attempts whose worker died run under a fan-out batch whose lease ran out: every worker
      // looks for those every 2 s, so they wait at most a lease and 2 s, as claimed ones do.
      new PeriodicChore('release of expired fan-out batch leases', 2000, async () => {
        if ((await this.leaseKeeper.releaseExpiredBatchLeases()) > 0) this.wake.signal();
      }),
    ];
    const maintenanceMs = options.maintenanceIntervalMs ?? 60_000;
    if (maintenanceMs > 0) {
      const { maintenancePool: pool } = this.connections;
      const retention = options.retention ?? null;
      services.push(maintenanceService({ pool, metrics: this.metrics, retention, log, everyMs: maintenanceMs }));
    }
    // Background jobs: replay by filter, recover, backfill. Stopping hands a running job back.
    if (options.jobs !== false) {
      const { connectionString, leaseSeconds } = options;
      const jobLog = log.child({ component: 'jobs' });
      services.push(
        new JobRunner({ connectionString, workerId: this.workerId, log: jobLog, leaseSeconds, ...options.jobs }),
      );
    }
    return services;
  }

  get currentState(): WorkerState {
    return this.state;
  }

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error(`worker already ${this.state}`);
    this.state = 'running';
    if (this.options.tracerProvider) {
      // Loaded only now: a worker that does not trace never imports OpenTelemetry (attempt-spans.ts).
      const [{ AttemptSpans }, api] = await Promise.all([import('./attempt-spans'), import('@opentelemetry/api')]);
      this.dispatcher.attemptSpans = new AttemptSpans(
        this.options.tracerProvider,
        api,
        this.options.propagateTraceContext ?? true,
      );
    }
    if (this.options.metricsServer) {
      this.metricsHttp = await startMetricsServer(this.metrics, {
        ...this.options.metricsServer,
        log: this.log,
        health: {
          live: () => (this.state === 'stopped' ? 'stopped' : null),
          // Ready while it takes work and its database answers with the schema it knows; draining is not.
          ready: async () =>
            this.state === 'running'
              ? checkReadiness(this.connections.maintenancePool)
              : { ready: false, database: { ok: true }, schema: null, process: this.state },
        },
      });
    }
    await this.wake.listen();
    for (const service of [...this.chores, this.renewal]) await service.start();
    this.log.info('worker started', { concurrency: this.options.concurrency, batchSize: this.options.batchSize });
  }

  private flushed(results: AttemptResult[], outcome: FlushOutcome): void {
    // Written (or refused by the fence): no longer this worker's to renew.
    this.leases.drop(results.map((result) => result.deliveryId));
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
    const deadline = Date.now() + deadlineMs;
    if (this.state === 'created') {
      this.state = 'stopped';
      await closeWorkerConnections(this.connections);
      return { ...this.stats, abandoned: 0, unwritten: 0, notRecorded: this.flusher.notRecorded };
    }
    this.state = 'draining';
    this.log.info('draining', { inFlight: this.dispatcher.inFlight.size, waiting: this.dispatcher.waiting });
    for (const service of this.chores) await service.stop();
    await this.dispatcher.releaseAllWaiting();
    while (!this.forced && this.dispatcher.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const abandoned = this.dispatcher.abandonInFlight();
    const unwritten = await this.flusher.drain(Math.max(1000, deadline - Date.now()));
    if (unwritten > 0) {
      // Not silently: sent, and to be sent again (HOOKLINE_SHUTDOWN_GRACE bounds the wait for the database).
      this.log.error('stopped with results not recorded: the database did not take them before the deadline', {
        unwritten,
        whatHappens:
          'their deliveries stay leased until the lease runs out, then any worker sends them again (same webhook-id and body)',
      });
    }
    await this.dispatcher.release(
      abandoned.map((id) => ({ id, dueAt: new Date() })),
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
