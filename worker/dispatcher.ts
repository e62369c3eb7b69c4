// Stages two and three of a worker (take -> dispatch -> send -> record): what the claim loop took goes
// through its endpoint's gate and rate limit (endpoint-rate-limit.ts), waits for a connection slot of
// its endpoint, is sent, and its result goes to the flusher (flush.ts). What may not be sent goes back to the queue without spending an
// attempt: a deleted endpoint's delivery is deleted, a disabled endpoint's waits 5 minutes, an open
// circuit's waits for it, one over its endpoint's rate limit waits for a token, one that waited past
// half its lease for a slot, or whose lease may end before the next renewal, is due again at once.
//
// Invariants:
//   held      deliveries taken and not yet handed to the flusher or released: in flight + waiting for
//             a slot + being dispatched. The loop keeps held <= concurrency, so a worker never leases
//             more than it can send.
//   inFlight  deliveries whose HTTP attempt is running; each holds one slot of its endpoint.
//   abandoned in flight when a forced stop released them: their results are dropped, never recorded.
//   A delivery is sent only while its lease outlasts the next renewal (lease-keeper.ts), and stays in
//   the lease book until its result or release is written (leases.ts).
import type { TracerProvider } from '@opentelemetry/api';
import type { Logger } from '../lib/runtime/log';
import type { Pool } from '../lib/database/pg';
import type { AttemptSpans, AttemptTrace } from './attempt-spans';
import type { CircuitGate } from './circuit-breaker';
import { sleep, type Clock } from './clock';
import { deliver, type AttemptResult, type ClaimedDelivery, type EndpointSettings } from './deliver';
import type { EndpointCache } from './endpoint-cache';
import { applyRateLimits } from './endpoint-rate-limit';
import { EndpointSlots } from './endpoint-slots';
import type { FlushOutcome, ResultFlusher } from './flush';
import type { HttpPools } from './http-pools';
import type { LeaseKeeper, Release } from './lease-keeper';
import type { LeaseBook } from './leases';
import type { WorkerMetrics } from './metrics';
import { PeriodicChore, type Service } from './service';
import { statements } from './statements';
import type { TakenRow } from './take-deliveries';

// A delivery of a disabled endpoint goes back to the queue for this long without spending an
// attempt; enabling the endpoint (or a replay) makes it due again.
const DISABLED_ENDPOINT_RECHECK_MS = 5 * 60_000;

interface Queued {
  delivery: ClaimedDelivery;
  endpoint: EndpointSettings;
}

export interface DispatcherOptions {
  pool: Pool;
  workerId: string;
  leaseSeconds: number;
  retrySchedule: readonly number[];
  userAgent: string;
  endpoints: EndpointCache;
  gate: CircuitGate;
  http: HttpPools;
  leases: LeaseBook;
  leaseKeeper: LeaseKeeper;
  flusher: ResultFlusher;
  metrics: WorkerMetrics;
  stats: { released: number };
  log: Logger;
  /** Whether the worker still takes work: a slot freed while draining starts nothing new. */
  running: () => boolean;
  /** A delivery finished: the loop may have room to take more. */
  onFinished: () => void;
  /** Decides when a waiting delivery has waited too long, and when a released one is due (clock.ts). */
  clock: Clock;
}

export class Dispatcher {
  held = 0;
  /** Set by traceAttempts(); null: no span, and nothing of OpenTelemetry loaded. */
  private attemptSpans: AttemptSpans | null = null;
  readonly inFlight = new Map<string, ClaimedDelivery>();
  private readonly abandoned = new Set<string>();
  /** Connections per endpoint, and the taken deliveries waiting for one. */
  private readonly slots = new EndpointSlots<Queued>();

  constructor(private readonly options: DispatcherOptions) {}

  /** Writes a span per attempt from now on (attempt-spans.ts), sending its trace context when `propagate`. */
  async traceAttempts(tracerProvider: TracerProvider, propagate: boolean): Promise<void> {
    // Loaded only now: a worker that does not trace never imports OpenTelemetry (attempt-spans.ts).
    const [{ AttemptSpans }, api] = await Promise.all([import('./attempt-spans'), import('@opentelemetry/api')]);
    this.attemptSpans = new AttemptSpans(tracerProvider, api, propagate);
  }

  get waiting(): number {
    return this.slots.waiting;
  }

  /** The deliveries being sent, and those waiting for a connection (taken, leased, not yet sent). */
  *sendingOrWaitingIds(): IterableIterator<string> {
    yield* this.inFlight.keys();
    for (const { delivery } of this.slots.waitingItems()) yield delivery.id;
  }

  /** Sends what was taken, or gives it back: deleted endpoint, disabled endpoint, open circuit. */
  async dispatch(rows: TakenRow[]): Promise<void> {
    this.held += rows.length;
    const { endpoints, leases, gate: gateKeeper, log } = this.options;
    let settings: Map<string, EndpointSettings>;
    try {
      settings = await endpoints.get(rows.map((row) => row.endpoint_id));
    } catch (error) {
      log.error('loading endpoints failed; releasing the batch', { error });
      await this.release(this.dueIn(rows, 1000), 'database_error');
      return;
    }
    const disabled: Release[] = [];
    const orphans: string[] = [];
    const gated = [];
    for (const row of rows) {
      const endpoint = settings.get(row.endpoint_id);
      if (!endpoint || row.endpoint_enabled === null) {
        // The endpoint was deleted with its deliveries; this one was written by a fan-out racing the
        // delete, and goes too. (The claim's own read of the endpoint, NULL, is newer than the cache's.)
        this.held--;
        orphans.push(row.id);
      } else if (!row.endpoint_enabled) {
        disabled.push({ id: row.id, dueAt: new Date(this.options.clock.now() + DISABLED_ENDPOINT_RECHECK_MS) });
      } else {
        gated.push({
          delivery: toClaimedDelivery(row),
          endpoint,
          circuitState: row.circuit_state,
          circuitOpenUntil: row.circuit_open_until,
        });
      }
    }
    const gate = await gateKeeper.sort(gated);
    const { send, later } = await applyRateLimits(this.options.pool, gate.send, this.options.clock);
    for (const { delivery, endpoint } of send) this.enqueue(delivery, endpoint);
    await this.release(disabled, 'endpoint_disabled');
    await this.release(gate.wait, 'circuit_open');
    await this.release(
      later.map(({ item, dueAt }) => ({ id: item.delivery.id, dueAt })),
      'rate_limited',
    );
    if (orphans.length > 0) {
      try {
        await statements.deleteOrphanDeliveries.run(this.options.pool, {
          workerId: this.options.workerId,
          deliveryIds: orphans,
        });
        leases.drop(orphans);
      } catch (error) {
        // The rows come back when their lease ends (a first attempt's: its fan-out batch row, kept for
        // that, worker/leases.ts) and are tried again.
        log.warn('deleting deliveries of a deleted endpoint failed', { error, deliveries: orphans.length });
        leases.abandon(orphans);
      }
    }
  }

  private enqueue(delivery: ClaimedDelivery, endpoint: EndpointSettings): void {
    const { id, maxConcurrency } = endpoint;
    if (this.slots.acquireOrWait(id, maxConcurrency, { delivery, endpoint }, this.options.clock.now())) {
      this.startDelivery(delivery, endpoint);
    }
  }

  /** Sends a delivery on a slot of its endpoint that it already holds. */
  private startDelivery(delivery: ClaimedDelivery, endpoint: EndpointSettings): void {
    if (!this.options.leaseKeeper.safeToSend(delivery.id)) {
      // Its lease may end before the next renewal (it waited for a connection while this process
      // stalled, or a renewal failed): another worker could take it over mid-request. Give it back.
      void this.release([{ id: delivery.id, dueAt: this.dueNow() }], 'lease_ending');
      this.freeSlot(endpoint);
      return;
    }
    this.inFlight.set(delivery.id, delivery);
    // The holding this attempt is sent under: its result, once written, ends that one only.
    const taking = this.options.leases.takingOf(delivery.id);
    const trace = this.attemptSpans?.start(delivery, endpoint) ?? null;
    void deliver(delivery, endpoint, {
      http: this.options.http,
      retrySchedule: this.options.retrySchedule,
      userAgent: this.options.userAgent,
      traceHeaders: trace?.headers,
      clock: this.options.clock,
    }).then((result) => this.finish(delivery, endpoint, result, trace, taking));
  }

  private finish(
    delivery: ClaimedDelivery,
    endpoint: EndpointSettings,
    result: AttemptResult,
    trace: AttemptTrace | null,
    taking: number | undefined,
  ): void {
    // An abandoned attempt's span is never ended, so never exported: its result is not recorded either.
    if (this.abandoned.delete(delivery.id)) return;
    this.inFlight.delete(delivery.id);
    this.held--;
    const { metrics, flusher } = this.options;
    metrics.attempts.inc({
      outcome: result.errorClass === null ? 'succeeded' : 'failed',
      error_class: result.errorClass ?? '',
    });
    metrics.attemptDuration.observe(result.durationMs / 1000);
    if (trace) this.attemptSpans?.end(trace, result);
    // Still held (and renewed) until the flush has written it.
    flusher.add(result, taking);
    this.freeSlot(endpoint);
    this.options.onFinished();
  }

  /** A connection to the endpoint came free: the next delivery waiting for one takes it. */
  private freeSlot(endpoint: EndpointSettings): void {
    const next = this.slots.release(endpoint.id, this.options.running());
    if (next) this.startDelivery(next.delivery, next.endpoint);
  }

  /**
   * A flush changed endpoints' health: a circuit that just opened (or an endpoint just disabled) stops
   * this worker's queue for it too, and what waits for a connection goes back without spending attempts.
   */
  endpointsChanged(endpoints: FlushOutcome['endpoints']): void {
    for (const endpoint of endpoints) {
      if (endpoint.circuitState === 'closed' && endpoint.enabled) continue;
      const queue = this.slots.takeWaiting(endpoint.id);
      if (queue.length === 0) continue;
      this.options.log.warn(endpoint.enabled ? 'circuit opened' : 'endpoint disabled', { endpointId: endpoint.id });
      void this.release(
        queue.map(({ delivery }) => ({ id: delivery.id, dueAt: this.dueNow() })),
        endpoint.enabled ? 'circuit_open' : 'endpoint_disabled',
      );
    }
  }

  /** releaseStaleWaiting() every second, while the worker takes work. */
  staleWaitingRelease(): Service {
    const { clock } = this.options;
    return new PeriodicChore('release of deliveries that waited too long', 1000, () => this.releaseStaleWaiting(), {
      clock,
    });
  }

  /**
   * Deliveries waiting for a connection to a slow endpoint must not outlive their lease (another
   * worker would send them too): past half the lease they go back to the queue.
   */
  async releaseStaleWaiting(): Promise<void> {
    const stale = this.slots.takeWaitingSince(this.options.clock.now() - (this.options.leaseSeconds * 1000) / 2);
    await this.release(
      stale.map(({ delivery }) => ({ id: delivery.id, dueAt: this.dueNow() })),
      'waited_too_long',
    );
  }

  /** Taken while the worker was stopping: straight back to the queue, unsent. */
  async returnTaken(rows: TakenRow[]): Promise<void> {
    this.held += rows.length;
    await this.release(this.dueIn(rows, 0), 'shutdown');
  }

  /** Stopping: everything waiting for a connection goes back, due now. */
  async releaseAllWaiting(): Promise<void> {
    await this.release(
      this.slots.takeWaiting().map(({ delivery }) => ({ id: delivery.id, dueAt: this.dueNow() })),
      'shutdown',
    );
  }

  /**
   * Draining: waits for the requests in flight to end, looking every 20 ms, until `deadline` (on the
   * clock) or until `forced()` says a second signal cut the wait short.
   */
  async settleInFlight(deadline: number, forced: () => boolean): Promise<void> {
    const { clock } = this.options;
    while (!forced() && this.inFlight.size > 0 && clock.now() < deadline) await sleep(clock, 20);
  }

  /** A forced stop: the requests still in flight are let go; their results will be dropped. */
  abandonInFlight(): string[] {
    const abandoned = [...this.inFlight.keys()];
    for (const id of abandoned) this.abandoned.add(id);
    this.inFlight.clear();
    return abandoned;
  }

  /** Gives held deliveries back to the queue without spending an attempt. */
  async release(deliveries: Release[], reason: string): Promise<void> {
    if (deliveries.length === 0) return;
    this.held -= deliveries.length;
    this.options.stats.released += deliveries.length;
    this.options.metrics.released.inc({ reason }, deliveries.length);
    await this.options.leaseKeeper.release(deliveries);
  }

  private dueNow(): Date {
    return new Date(this.options.clock.now());
  }

  private dueIn(rows: TakenRow[], ms: number): Release[] {
    const dueAt = this.options.clock.now() + ms;
    return rows.map((row) => ({ id: row.id, dueAt: new Date(dueAt) }));
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
    traceparent: row.traceparent,
    tracestate: row.tracestate,
  };
}
