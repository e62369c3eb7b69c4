// The delivery loop: wake -> claim a batch sized to the free slots -> deliver each over the
// endpoint's keep-alive pool -> buffer the results -> flush them in batches.
// Shutdown is an explicit state machine: running -> draining (no more claims; deliveries waiting
// for an endpoint slot are released without spending an attempt; in-flight ones finish; final
// flush) -> stopped. stop({ force: true }) (a second signal, or the deadline) releases whatever is
// still in flight instead of waiting for it.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createLogger, type Logger } from '../lib/log';
import { createPool, type Pool } from '../lib/pg';
import type { AddressPolicyOptions } from '../lib/webhooks/address-policy';
import { deliver, type AttemptResult, type ClaimedDelivery, type EndpointSettings } from './deliver';
import { EndpointCache } from './endpoint-cache';
import { ResultFlusher } from './flush';
import { HttpPools, type HttpLimits } from './http-pools';
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
  retrySchedule: readonly number[];
  http: HttpLimits;
  addressPolicy: AddressPolicyOptions;
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
}

// A delivery of a disabled endpoint goes back to the queue for this long without spending an
// attempt; enabling the endpoint makes it due at once.
const DISABLED_ENDPOINT_RECHECK_MS = 5 * 60_000;

export class DeliveryWorker {
  readonly workerId: string;
  private state: WorkerState = 'created';
  private readonly pool: Pool;
  private readonly wake: Wake;
  private readonly flusher: ResultFlusher;
  private readonly http: HttpPools;
  private readonly endpoints: EndpointCache;
  private readonly log: Logger;
  /** Claimed and not yet handed to the flusher or released. */
  private held = 0;
  private readonly inFlight = new Map<string, ClaimedDelivery>();
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, { delivery: ClaimedDelivery; endpoint: EndpointSettings }[]>();
  private loopDone: Promise<void> | null = null;
  private readonly claimThreshold: number;
  readonly stats = { claimed: 0, succeeded: 0, failed: 0, released: 0 };

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.log = (options.log ?? createLogger()).child({ component: 'worker', workerId: this.workerId });
    this.pool = createPool(options.connectionString, { max: 4 });
    this.wake = new Wake(options.connectionString, this.log);
    this.http = new HttpPools(options.http, options.addressPolicy, options.resolve);
    this.endpoints = new EndpointCache(this.pool);
    this.flusher = new ResultFlusher({
      pool: this.pool,
      workerId: this.workerId,
      intervalMs: options.flushIntervalMs,
      maxResults: options.flushMaxResults,
      log: this.log,
    });
    // Claiming one row per freed slot would cost a round trip per delivery; wait until a quarter of
    // a batch is free (the loop still claims at once when it holds nothing).
    this.claimThreshold = Math.max(1, Math.floor(Math.min(options.batchSize, options.concurrency) / 4));
  }

  get currentState(): WorkerState {
    return this.state;
  }

  async start(): Promise<void> {
    if (this.state !== 'created') throw new Error(`worker already ${this.state}`);
    this.state = 'running';
    await this.wake.listen();
    this.loopDone = this.loop();
    this.log.info('worker started', { concurrency: this.options.concurrency, batchSize: this.options.batchSize });
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (this.state === 'running') {
      const free = this.options.concurrency - this.held;
      if (free < this.claimThreshold && this.held > 0) {
        await this.wake.wait(this.options.pollIntervalMs);
        continue;
      }
      let claimed: ClaimRow[];
      const limit = Math.min(free, this.options.batchSize);
      try {
        claimed = (
          await this.pool.query<ClaimRow>(sql.claimDeliveries, [this.workerId, limit, this.options.leaseSeconds])
        ).rows;
        failures = 0;
      } catch (error) {
        // The database is down or restarting: back off (100 ms doubling to 5 s), never exit.
        failures++;
        const delay = Math.min(5000, 100 * 2 ** (failures - 1));
        this.log.error('claim failed; retrying', { error, failures, retryInMs: delay });
        await this.wake.wait(delay);
        continue;
      }
      if (claimed.length > 0) {
        if (this.state !== 'running') {
          // Stopped while the claim was in flight: hand the rows straight back.
          await this.release(claimed.map((row) => row.id), new Date());
          break;
        }
        this.held += claimed.length;
        this.stats.claimed += claimed.length;
        await this.dispatch(claimed);
      }
      if (claimed.length === limit) continue;
      await this.wake.wait(await this.idleDelay());
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
      await this.release(rows.map((row) => row.id), new Date(Date.now() + 1000));
      return;
    }
    const disabled: string[] = [];
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
        // Deleted with its deliveries (ON DELETE CASCADE); nothing left to record.
        this.held--;
        continue;
      }
      if (!endpoint.enabled) {
        disabled.push(row.id);
        continue;
      }
      const running = this.active.get(endpoint.id) ?? 0;
      if (running < endpoint.maxConcurrency) this.startDelivery(delivery, endpoint);
      else {
        const queue = this.waiting.get(endpoint.id) ?? [];
        queue.push({ delivery, endpoint });
        this.waiting.set(endpoint.id, queue);
      }
    }
    if (disabled.length > 0) await this.release(disabled, new Date(Date.now() + DISABLED_ENDPOINT_RECHECK_MS));
  }

  private startDelivery(delivery: ClaimedDelivery, endpoint: EndpointSettings): void {
    this.active.set(endpoint.id, (this.active.get(endpoint.id) ?? 0) + 1);
    this.inFlight.set(delivery.id, delivery);
    void deliver(delivery, endpoint, {
      http: this.http,
      retrySchedule: this.options.retrySchedule,
      userAgent: this.options.userAgent ?? 'Hookline/0.1',
    }).then((result) => this.finish(delivery, endpoint, result));
  }

  private finish(delivery: ClaimedDelivery, endpoint: EndpointSettings, result: AttemptResult): void {
    this.inFlight.delete(delivery.id);
    if (result.state === 'succeeded') this.stats.succeeded++;
    else this.stats.failed++;
    this.flusher.add(result);
    this.held--;
    const next = this.waiting.get(endpoint.id)?.shift();
    if (next && this.state === 'running') this.startDelivery(next.delivery, next.endpoint);
    else this.active.set(endpoint.id, (this.active.get(endpoint.id) ?? 1) - 1);
    if (this.waiting.get(endpoint.id)?.length === 0) this.waiting.delete(endpoint.id);
    if (this.options.concurrency - this.held >= this.claimThreshold) this.wake.signal();
  }

  private async release(ids: string[], dueAt: Date): Promise<void> {
    if (ids.length === 0) return;
    this.held -= ids.length;
    this.stats.released += ids.length;
    try {
      await this.pool.query(sql.releaseDeliveries, [this.workerId, ids, dueAt]);
    } catch (error) {
      // Their leases run out and they are claimed again; at worst a short delay.
      this.log.warn('release failed; the lease will return them', { error, deliveries: ids.length });
    }
  }

  /**
   * Stops claiming, releases deliveries still waiting for an endpoint slot, waits for in-flight ones
   * (up to `deadlineMs`), flushes, and closes connections. With `force`, or once the deadline
   * passes, in-flight deliveries are released too: they will be sent again by another worker.
   */
  async stop(options: { deadlineMs?: number; force?: boolean } = {}): Promise<void> {
    if (this.state === 'stopped') return;
    const deadline = Date.now() + (options.deadlineMs ?? 10_000);
    if (this.state === 'running') {
      this.state = 'draining';
      this.wake.signal();
      this.log.info('draining', { inFlight: this.inFlight.size });
    }
    await this.loopDone;
    const queued = [...this.waiting.values()].flat().map(({ delivery }) => delivery.id);
    this.waiting.clear();
    await this.release(queued, new Date());
    while (!options.force && this.inFlight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const abandoned = [...this.inFlight.keys()];
    this.inFlight.clear();
    await this.flusher.drain(Math.max(1000, deadline - Date.now()));
    await this.release(abandoned, new Date());
    this.state = 'stopped';
    await Promise.all([this.wake.close(), this.http.close()]);
    await this.pool.end().catch(() => {});
    this.log.info('stopped', { ...this.stats, abandoned: abandoned.length });
  }
}
