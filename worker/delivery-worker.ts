// The delivery loop: wake -> claim a batch sized to the free slots -> deliver each over the
// endpoint's keep-alive pool -> buffer the results -> flush them in batches.
// Shutdown is an explicit state machine: running -> draining (no more claims; deliveries waiting
// for an endpoint slot are released without spending an attempt; in-flight ones finish; final
// flush) -> stopped. stop({ force: true }) (a second signal, or the deadline) releases whatever is
// still in flight instead of waiting for it.
// Round trips per delivery in steady state: 1/batch for the claim, 1/flush for the write-back
// (tens to hundreds of results each), and an endpoint lookup only when the 2 s cache misses.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../lib/log';
import { createPool, type Pool } from '../lib/pg';
import type { AddressPolicyOptions } from '../lib/webhooks/address-policy';
import { deliver, type AttemptResult, type ClaimedDelivery, type EndpointSettings } from './deliver';
import { EndpointCache } from './endpoint-cache';
import {
  connectionOptions,
  RECORD_BY_KEY_SETTINGS,
  ResultFlusher,
  type CircuitSettings,
  type FlushOutcome,
} from './flush';
import { HttpPools, type HttpLimits } from './http-pools';
import { EndpointSlots } from './endpoint-slots';
import { LeaseBook } from './leases';
import { applyRetention, logRetention, readGauges, sampleQueueDepth, type RetentionOptions } from './maintenance';
import { startMetricsServer, WorkerMetrics } from './metrics';
import { runOperationsPass } from './operations/run-operations-pass'; // operational events (issue 14)
import { BUSY_POLL_MS, BUSY_WINDOW_MS, PollingPresence } from './polling-presence';
import type { Resolver } from './resolve-and-pin';
import { sql } from './sql';
import { Wake } from './wake';

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
  http: HttpLimits;
  addressPolicy: AddressPolicyOptions;
  circuit?: CircuitSettings;
  /** Disable an endpoint after a failure streak this long; 0 = never. Default 5 days. */
  autoDisableAfterMs?: number;
  /** Retention run by one worker once per maintenance interval; null = keep everything. */
  retention?: RetentionOptions | null;
  /** Queue depth sample, gauges and retention; default one minute, 0 = never. */
  maintenanceIntervalMs?: number;
  /** Serve Prometheus metrics at http://host:port/metrics; null = no server. */
  metricsServer?: { port: number; host: string } | null;
  resolve?: Resolver;
  log?: Logger;
  userAgent?: string;
}

export type WorkerState = 'created' | 'running' | 'draining' | 'stopped';

interface ClaimRow {
  id: string;
  app_id: string;
  endpoint_id: string;
  message_id: string;
  attempt_count: number;
  event_type: string;
  created_at: Date;
  payload: string;
  endpoint_enabled: boolean;
  circuit_state: 'closed' | 'open' | 'half_open';
  circuit_open_until: Date | null;
}

/** A fan-out row: a leased delivery with the statement's counts, or only the counts (id NULL). */
type FanOutRow = (ClaimRow | { [K in keyof ClaimRow]: null }) & { messages_taken: number; deliveries_created: number };

interface Queued {
  delivery: ClaimedDelivery;
  endpoint: EndpointSettings;
}

export const DEFAULT_CIRCUIT: CircuitSettings = { failureThreshold: 10, openBaseMs: 30_000, openMaxMs: 30 * 60_000 };
const FIVE_DAYS_MS = 5 * 86_400_000;
// The worker's statements take milliseconds (a flush of 500 results: ~20 ms); one that has not
// answered in 5 s is on a connection that went silent, and is dropped so the next one reconnects
// (lib/pg.ts). Short enough that delivery resumes within seconds once the database is reachable again.
const WORKER_CONNECTION_LIMITS = { query_timeout: 5_000, connectionTimeoutMillis: 3_000 };
// And the server's side of such a connection: a backend whose client went silent mid-transaction
// would hold its locks until the kernel's keepalive gives up (2 hours by default).
const WORKER_SESSION_SETTINGS = {
  idle_in_transaction_session_timeout: '10s',
  tcp_keepalives_idle: '30',
  tcp_keepalives_interval: '10',
  tcp_keepalives_count: '3',
};

// Time a delivery's lease must still run, beyond the next renewal, for it to be sent: a renewal round
// trip plus event-loop lag under load.
const LEASE_MARGIN_MS = 500;

// A delivery of a disabled endpoint goes back to the queue for this long without spending an
// attempt; enabling the endpoint (or a replay) makes it due again.
const DISABLED_ENDPOINT_RECHECK_MS = 5 * 60_000;

export class DeliveryWorker {
  readonly workerId: string;
  readonly metrics = new WorkerMetrics();
  private state: WorkerState = 'created';
  private readonly pool: Pool;
  /** The flusher's own connection, planning by primary key (RECORD_BY_KEY_SETTINGS). */
  private readonly recordPool: Pool;
  private readonly wake: Wake;
  private readonly flusher: ResultFlusher;
  private readonly http: HttpPools;
  private readonly endpoints: EndpointCache;
  private readonly log: Logger;
  /** Claimed and not yet handed to the flusher or released. */
  private held = 0;
  private readonly inFlight = new Map<string, ClaimedDelivery>();
  /** In flight when a forced stop released them: their results must not be recorded. */
  private readonly abandoned = new Set<string>();
  /** Connections per endpoint, and the claimed deliveries waiting for one. */
  private readonly slots = new EndpointSlots<Queued>();
  private loopDone: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private forced = false;
  private readonly claimThreshold: number;
  private readonly maxUnrecorded: number;
  private readonly maxWaiting: number;
  private readonly leases: LeaseBook;
  /** Leases are renewed this often: a third of a lease, so one late renewal still lands in time. */
  private readonly renewEveryMs: number;
  private lastRenewalAt = Date.now();
  /** Deliveries each fanned-out message made lately (subscribed endpoints per event), smoothed. */
  private deliveriesPerMessage = 1;
  private readonly presence: PollingPresence;
  private lastFoundWorkAt = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private maintenanceRunning = false;
  private metricsHttp: Server | null = null;
  readonly stats = { claimed: 0, succeeded: 0, failed: 0, released: 0 };

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.leaseSeconds < 2) {
      // Renewed every third of a lease: under 2 s, one slow renewal round trip would lose it.
      throw new Error(`the lease must be at least 2 seconds, got ${options.leaseSeconds}`);
    }
    this.leases = new LeaseBook(options.leaseSeconds * 1000);
    this.renewEveryMs = (options.leaseSeconds * 1000) / 3;
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.log = (options.log ?? createLogger()).child({ component: 'worker', workerId: this.workerId });
    this.pool = createPool(options.connectionString, {
      max: 4,
      ...WORKER_CONNECTION_LIMITS,
      options: connectionOptions(WORKER_SESSION_SETTINGS),
    });
    this.recordPool = createPool(options.connectionString, {
      max: 1,
      ...WORKER_CONNECTION_LIMITS,
      options: connectionOptions({ ...WORKER_SESSION_SETTINGS, ...RECORD_BY_KEY_SETTINGS }),
    });
    this.wake = new Wake(options.connectionString, this.log);
    this.http = new HttpPools(options.http, options.addressPolicy, options.resolve);
    this.endpoints = new EndpointCache(this.pool);
    this.presence = new PollingPresence(this.pool, this.workerId, this.log);
    this.flusher = new ResultFlusher({
      pool: this.recordPool,
      workerId: this.workerId,
      intervalMs: options.flushIntervalMs,
      maxResults: options.flushMaxResults,
      circuit: options.circuit ?? DEFAULT_CIRCUIT,
      autoDisableAfterMs: options.autoDisableAfterMs ?? FIVE_DAYS_MS,
      keepSuccessfulAttempts: options.keepSuccessfulAttempts ?? false,
      log: this.log,
      onFlushed: (results, outcome, durationMs) => this.flushed(results, outcome, durationMs),
      onError: () => this.metrics.databaseErrors.inc({ operation: 'flush' }),
    });
    // Claiming one row per freed slot would cost a round trip per delivery; wait until a quarter of
    // a batch is free (the loop still claims at once when it holds nothing).
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
    // Deliveries waiting for a connection to a slow endpoint must not outlive their lease (another
    // worker would send them too): past half the lease they go back to the queue.
    this.timers.push(setInterval(() => void this.releaseStaleWaiting(), 1000));
    // Leases are short and renewed while this process runs (worker/sql/renew-leases.sql).
    this.timers.push(setInterval(() => void this.renewLeases(), this.renewEveryMs));
    // First attempts whose worker died run under a queue row whose lease ran out: every worker looks
    // for those every 2 s, so they wait at most a lease and 2 s, as claimed ones do.
    this.timers.push(setInterval(() => void this.releaseExpiredMessageLeases(), 2000));
    const maintenanceMs = this.options.maintenanceIntervalMs ?? 60_000;
    if (maintenanceMs > 0) {
      this.timers.push(setInterval(() => void this.maintain(), maintenanceMs));
      this.timers.push(setTimeout(() => void this.maintain(), Math.min(1000, maintenanceMs)));
    }
    this.log.info('worker started', { concurrency: this.options.concurrency, batchSize: this.options.batchSize });
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (this.state === 'running') {
      const free = this.options.concurrency - this.held;
      const unrecorded = this.flusher.unrecorded;
      if (unrecorded >= this.maxUnrecorded) {
        // Backpressure: results are arriving faster than the database records them. Sending more
        // would only grow the backlog until leases run out and other workers send the same
        // deliveries again; wait for a flush instead (it signals the wake).
        this.metrics.backpressureWaits.inc({});
        await this.wake.wait(this.options.pollIntervalMs);
        continue;
      }
      // Deliveries claimed but waiting for a connection to their endpoint (its max_concurrency) are
      // held without being sent, and a frozen worker would hold them too: keep that set small.
      const limit = Math.min(
        free,
        this.options.batchSize,
        this.maxUnrecorded - unrecorded,
        this.maxWaiting - this.slots.waiting,
      );
      if (limit < this.claimThreshold && this.held > 0) {
        await this.wake.wait(this.options.pollIntervalMs);
        continue;
      }
      let taken: ClaimRow[];
      let full: boolean;
      const started = performance.now();
      try {
        ({ taken, full } = await this.take(limit));
        this.metrics.claimDuration.observe((performance.now() - started) / 1000);
        if (failures > 0) {
          this.log.info('database reachable again; claiming', { after: failures });
          // The failed claim or fan-out may have committed with its answer lost. Awaited, before the
          // next claim: "leased to me and not in my book" is only true of strays while no claim or
          // fan-out of this loop is in flight. Run beside the loop, it gave back the first attempts
          // of a fan-out that committed meanwhile, while they were being sent (a SIGKILL storm on a
          // loaded machine sent such events twice).
          await this.releaseStrayLeases();
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
   * Takes up to `limit` deliveries to send: first those already due in the queue (retries, and what
   * an earlier fan-out could not lease), then new messages, fanned out into deliveries leased to this
   * worker in the same statement (worker/sql/fan-out-messages.sql). `full` means there may be more.
   */
  private async take(limit: number): Promise<{ taken: ClaimRow[]; full: boolean }> {
    let sentAt = Date.now();
    const claimed = (
      await this.pool.query<ClaimRow>(sql.claimDeliveries, [this.workerId, limit, this.options.leaseSeconds])
    ).rows;
    this.leases.extend(
      claimed.map((row) => row.id),
      sentAt,
    );
    const room = limit - claimed.length;
    if (room === 0) return { taken: claimed, full: true };
    // Sized so the deliveries the messages make roughly fill the room: with 100 endpoints subscribed,
    // 256 messages would write 25,600 rows in one statement for 256 slots.
    const messages = Math.max(1, Math.min(room, Math.floor(room / this.deliveriesPerMessage)));
    sentAt = Date.now();
    const rows = (
      await this.pool.query<FanOutRow>(sql.fanOutMessages, [this.workerId, messages, room, this.options.leaseSeconds])
    ).rows;
    const counts = rows[0];
    if (counts && counts.messages_taken > 0) {
      const observed = Math.max(1, counts.deliveries_created / counts.messages_taken);
      this.deliveriesPerMessage = 0.5 * this.deliveriesPerMessage + 0.5 * observed;
      this.metrics.fannedOut.inc({}, counts.messages_taken);
    }
    const fanned = rows.filter((row): row is FanOutRow & ClaimRow => row.id !== null);
    this.leases.extend(
      fanned.map((row) => row.id),
      sentAt,
    );
    this.leases.underMessages(fanned.map((row) => ({ id: row.id, messageId: row.message_id })));
    return {
      taken: claimed.length > 0 ? [...claimed, ...fanned] : fanned,
      full: (counts?.messages_taken ?? 0) === messages || (counts?.deliveries_created ?? 0) > fanned.length,
    };
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
      const { rows } = await this.pool.query<{ next_due_at: Date | null }>(sql.nextDueAt);
      const nextDue = rows[0]?.next_due_at;
      if (!nextDue) return this.options.pollIntervalMs;
      return Math.max(1, Math.min(this.options.pollIntervalMs, nextDue.getTime() - Date.now() + 1));
    } catch {
      return this.options.pollIntervalMs;
    }
  }

  private async dispatch(rows: ClaimRow[]): Promise<void> {
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
    const now = Date.now();
    const releases: { id: string; dueAt: Date; reason: string }[] = [];
    const probing = new Map<string, { delivery: ClaimedDelivery; endpoint: EndpointSettings }[]>();
    const orphans: string[] = [];
    for (const row of rows) {
      const delivery: ClaimedDelivery = {
        id: row.id,
        appId: row.app_id,
        endpointId: row.endpoint_id,
        messageId: row.message_id,
        attemptCount: row.attempt_count,
        eventType: row.event_type,
        createdAt: row.created_at,
        payload: row.payload,
      };
      const endpoint = endpoints.get(row.endpoint_id);
      if (!endpoint) {
        // The endpoint was deleted with its deliveries; this one was written by a fan-out racing the
        // delete, and goes too.
        this.held--;
        this.leases.drop([row.id]);
        orphans.push(row.id);
        continue;
      }
      if (!row.endpoint_enabled) {
        releases.push({ id: row.id, dueAt: new Date(now + DISABLED_ENDPOINT_RECHECK_MS), reason: 'endpoint_disabled' });
        continue;
      }
      if (row.circuit_state !== 'closed') {
        const openUntil = row.circuit_open_until?.getTime() ?? 0;
        if (openUntil > now) {
          // Open (or a probe is out): wait without spending an attempt.
          releases.push({ id: row.id, dueAt: new Date(openUntil), reason: 'circuit_open' });
        } else {
          const group = probing.get(endpoint.id) ?? [];
          group.push({ delivery, endpoint });
          probing.set(endpoint.id, group);
        }
        continue;
      }
      this.enqueue(delivery, endpoint);
    }
    for (const [endpointId, group] of probing) {
      const probeMs = (group[0]!.endpoint.timeoutMs ?? this.options.http.timeoutMs) + 1000;
      let won = false;
      try {
        won = (await this.pool.query(sql.takeCircuitProbe, [endpointId, probeMs])).rowCount === 1;
      } catch (error) {
        this.log.warn('taking the circuit probe failed', { error, endpointId });
      }
      const rest = won ? group.slice(1) : group;
      if (won) {
        this.log.info('circuit half-open: sending one probe', { endpointId });
        this.enqueue(group[0]!.delivery, group[0]!.endpoint);
      }
      for (const { delivery } of rest) {
        releases.push({ id: delivery.id, dueAt: new Date(Date.now() + probeMs), reason: 'circuit_open' });
      }
    }
    if (releases.length > 0) await this.releaseByReason(releases);
    if (orphans.length > 0) {
      // If this fails, the rows come back when their lease ends and are tried again.
      await this.pool.query(sql.deleteOrphanDeliveries, [this.workerId, orphans]).catch((error: unknown) => {
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
    // Safe to send while the lease outlasts the next renewal (which then extends it) by a margin.
    const nextRenewalInMs = Math.max(0, this.lastRenewalAt + this.renewEveryMs - Date.now());
    if (!this.leases.runsFor(delivery.id, nextRenewalInMs + LEASE_MARGIN_MS)) {
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
    if (result.state === 'succeeded') this.stats.succeeded++;
    else this.stats.failed++;
    // The last first attempt of its message takes the message's queue row with it when recorded.
    const [settledMessage] = this.leases.drop([delivery.id]);
    this.flusher.add(result, settledMessage ?? null);
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

  private async releaseStrayLeases(): Promise<void> {
    try {
      const { rowCount } = await this.pool.query(sql.releaseStrayLeases, [
        this.workerId,
        this.leases.ids(),
        this.leases.messages(),
      ]);
      if (rowCount)
        this.log.warn('gave back deliveries leased by a claim whose answer was lost', { deliveries: rowCount });
      // A lost fan-out's queue rows were just expired: give their deliveries back now.
      await this.releaseExpiredMessageLeases();
    } catch (error) {
      // Their leases run out instead.
      this.log.warn('giving back stray leases failed', { error });
    }
  }

  /** Gives back the first attempts of messages whose worker let their queue-row lease run out. */
  private async releaseExpiredMessageLeases(): Promise<void> {
    if (this.state !== 'running') return;
    try {
      const { rows } = await this.pool.query<{ messages: number; deliveries: number }>(
        sql.releaseExpiredMessageLeases,
      );
      const released = rows[0];
      if (released && released.deliveries > 0) {
        this.log.warn('gave back first attempts whose worker let their lease run out', released);
        this.wake.signal();
      }
    } catch (error) {
      this.metrics.databaseErrors.inc({ operation: 'release' });
      this.log.warn('giving back expired message leases failed; next try in 2 s', { error });
    }
  }

  /** Renews the leases of everything this worker holds: in flight, and waiting for a connection. */
  private async renewLeases(): Promise<void> {
    const sentAt = Date.now();
    this.lastRenewalAt = sentAt;
    if (this.leases.size === 0 || this.state === 'stopped') return;
    const ids = this.leases.ids();
    try {
      const { rows } = await this.pool.query<{ id: string }>(sql.renewLeases, [
        this.workerId,
        ids,
        this.options.leaseSeconds,
        this.leases.messages(),
      ]);
      const renewed = new Set(rows.map((row) => row.id));
      // Recorded or released while the renewal ran: nothing to do. Still held: extend. Otherwise
      // taken over (this process was frozen past its lease): never send it; a result in flight is
      // fenced off when flushed.
      const stillHeld = ids.filter((id) => this.leases.holds(id));
      this.leases.extend(
        stillHeld.filter((id) => renewed.has(id)),
        sentAt,
      );
      const lost = stillHeld.filter((id) => !renewed.has(id));
      if (lost.length > 0) {
        this.leases.drop(lost);
        this.log.warn('leases lost to another worker before renewal', { lost: lost.length });
      }
    } catch (error) {
      this.metrics.databaseErrors.inc({ operation: 'renew' });
      this.log.warn('renewing leases failed; they end sooner', { error, deliveries: ids.length });
    }
  }

  private async releaseStaleWaiting(): Promise<void> {
    const stale = this.slots.takeWaitingSince(Date.now() - (this.options.leaseSeconds * 1000) / 2);
    if (stale.length > 0) {
      await this.release(
        stale.map(({ delivery }) => ({ id: delivery.id, dueAt: new Date() })),
        'waited_too_long',
      );
    }
  }

  private async releaseByReason(releases: { id: string; dueAt: Date; reason: string }[]): Promise<void> {
    for (const release of releases) this.metrics.released.inc({ reason: release.reason });
    await this.release(releases, null);
  }

  private async release(deliveries: { id: string; dueAt: Date }[], reason: string | null): Promise<void> {
    if (deliveries.length === 0) return;
    this.held -= deliveries.length;
    const settledMessages = this.leases.drop(deliveries.map((delivery) => delivery.id));
    this.stats.released += deliveries.length;
    if (reason) this.metrics.released.inc({ reason }, deliveries.length);
    try {
      await this.pool.query(sql.releaseDeliveries, [
        this.workerId,
        deliveries.map((delivery) => delivery.id),
        deliveries.map((delivery) => delivery.dueAt),
        settledMessages,
      ]);
    } catch (error) {
      // Their leases run out and they are claimed again; at worst a delay of one lease.
      this.metrics.databaseErrors.inc({ operation: 'release' });
      this.log.warn('release failed; the lease will return them', { error, deliveries: deliveries.length });
    }
  }

  /** The once-a-minute chores; skipped while the previous run is still going. */
  private async maintain(): Promise<void> {
    if (this.maintenanceRunning || this.state !== 'running') return;
    this.maintenanceRunning = true;
    try {
      await sampleQueueDepth(this.pool);
      const gauges = await readGauges(this.pool);
      for (const { state, count } of gauges.queue) this.metrics.queueDepth.set({ state }, count);
      for (const state of ['closed', 'open', 'half_open']) {
        this.metrics.circuits.set({ state }, gauges.circuits.find((row) => row.state === state)?.count ?? 0);
      }
      if (this.options.retention) logRetention(this.log, await applyRetention(this.pool, this.options.retention));
      // Operational events (issue 14): dead deliveries, alert rules.
      await runOperationsPass(this.pool, { retentionMs: this.options.retention?.retentionMs });
    } catch (error) {
      this.metrics.databaseErrors.inc({ operation: 'maintenance' });
      this.log.warn('maintenance failed; next run in a minute', { error });
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
  stop(options: { deadlineMs?: number; force?: boolean } = {}): Promise<void> {
    if (options.force) this.forced = true;
    this.stopping ??= this.shutdown(options.deadlineMs ?? 10_000);
    return this.stopping;
  }

  private async shutdown(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    const wasRunning = this.state === 'running';
    if (this.state === 'created') {
      this.state = 'stopped';
      await Promise.all([this.pool.end().catch(() => {}), this.recordPool.end().catch(() => {})]);
      return;
    }
    this.state = 'draining';
    for (const timer of this.timers) clearInterval(timer);
    this.wake.signal();
    this.log.info('draining', { inFlight: this.inFlight.size, waiting: this.slots.waiting });
    if (wasRunning) await this.loopDone;
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
    await this.flusher.drain(Math.max(1000, deadline - Date.now()));
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
    await Promise.all([this.pool.end().catch(() => {}), this.recordPool.end().catch(() => {})]);
    this.log.info('stopped', { ...this.stats, abandoned: abandoned.length });
  }
}
