// Keep-alive connection pools, one per endpoint and origin, each capped at the endpoint's
// max_concurrency: 100,000 deliveries to one endpoint reuse at most that many TCP connections,
// where pg_net opens one per request and runs out of ephemeral ports.
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import type { AddressPolicyOptions } from '../lib/domain/webhooks/address-policy';
import { headerProblem } from '../lib/domain/webhooks/header-problem';
import { DeadlineError, InvalidHeaderError } from './classify-error';
import { realClock, type Clock, type Timer } from './clock';
import { createPinnedConnector, type Resolver } from './resolve-and-pin';

export interface HttpLimits {
  /** One deadline for connect, headers and the whole body: a receiver that drips a byte every
   * 500 ms defeats per-read timeouts but not this. */
  timeoutMs: number;
  /** Bytes of the response body kept for the attempt log. */
  keepBytes: number;
  /** Further bytes read and dropped so the connection can be reused; past this the socket is closed. */
  drainBytes: number;
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
}

/** POST for every endpoint but the implicit ones hookline.http_get and hookline.http_delete make. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface SendRequest {
  poolKey: string;
  /** Absent: POST. */
  method?: HttpMethod;
  url: URL;
  connections: number;
  headers: Record<string, string>;
  /** An empty string sends no body at all (GET, and DELETE without one). */
  body: string;
  /** This attempt's deadline; defaults to the worker's. */
  timeoutMs?: number;
  /** Called once the status line and headers arrived, to tell a reset from an empty reply. */
  onHeaders?: () => void;
}

interface PoolEntry {
  pool: Pool;
  origin: string;
  connections: number;
  /** The deadline of the latest request, which bounds each new connection's lookup, TCP and TLS. */
  connect: { timeoutMs: number };
  /** Requests sent and not yet settled, and when the last one was sent or settled (clock time). */
  inFlight: number;
  lastUsedAt: number;
}

/**
 * A pool with nothing in flight for this long is closed and forgotten. undici keeps an idle connection
 * at most 600 s (keepAliveMaxTimeout below, and less unless the receiver asks for more), so a pool idle
 * that long holds no connection worth keeping. Without it, every endpoint ever delivered to kept its
 * pool for the process's life: deleted ones, and hookline.http_post's implicit endpoints, one per
 * distinct URL, params and headers.
 */
export const POOL_IDLE_MS = 600_000;

export class HttpPools {
  private readonly pools = new Map<string, PoolEntry>();
  private readonly clock: Clock;
  private readonly idleMs: number;
  /** Runs while there are pools: an idle worker keeps no timer of its own. */
  private sweep: Timer | null = null;

  constructor(
    private readonly limits: HttpLimits,
    private readonly policy: AddressPolicyOptions,
    private readonly resolve?: Resolver,
    options: { clock?: Clock; idleMs?: number } = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.idleMs = options.idleMs ?? POOL_IDLE_MS;
  }

  /**
   * The endpoint's pool, made anew when its origin or its max_concurrency changed. Its connector bounds
   * a new connection's name lookup, TCP and TLS by the endpoint's deadline (resolve-and-pin.ts): one
   * connector for all pools bounded them by the worker's (15 s by default) and the lookup not at all.
   * A connection is made for the pool's queue, not for one request, so the deadline is the latest
   * request's: the same for all of an endpoint's requests but across an edit of its timeout.
   */
  private poolFor(key: string, origin: string, connections: number, connectTimeoutMs: number): PoolEntry {
    const existing = this.pools.get(key);
    if (existing && existing.origin === origin && existing.connections === connections) {
      existing.connect.timeoutMs = connectTimeoutMs;
      return existing;
    }
    if (existing) void existing.pool.close();
    const connect = { timeoutMs: connectTimeoutMs };
    const pool = new Pool(origin, {
      connections,
      pipelining: 1,
      connect: createPinnedConnector(this.policy, {
        connectTimeoutMs: () => connect.timeoutMs,
        resolve: this.resolve,
      }),
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      // The per-attempt deadline in send() is what limits an attempt; these only back it up, at the
      // largest per-endpoint timeout allowed (endpoints.timeout_ms <= 300,000).
      headersTimeout: 300_000,
      bodyTimeout: 300_000,
    });
    const entry: PoolEntry = { pool, origin, connections, connect, inFlight: 0, lastUsedAt: this.clock.now() };
    this.pools.set(key, entry);
    this.sweep ??= this.clock.every(this.idleMs, () => this.closeIdle());
    return entry;
  }

  /** Closes and forgets each pool idle for idleMs; stops the sweep once none is left. */
  private closeIdle(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.pools) {
      if (entry.inFlight > 0 || now - entry.lastUsedAt < this.idleMs) continue;
      this.pools.delete(key);
      void entry.pool.close().catch(() => {});
    }
    if (this.pools.size === 0) this.stopSweep();
  }

  private stopSweep(): void {
    this.sweep?.cancel();
    this.sweep = null;
  }

  /**
   * One request through undici's dispatch API, its response collected by a ResponseCollector. Through
   * pool.request() each request also built a Readable stream for the body, an AbortController for the
   * deadline and an async-hooks resource: 65 against 29 us of the client's CPU per request (20,000 POSTs
   * to a loopback server, 10 connections, medians of 5 runs), ~35 us less of the worker's CPU per
   * delivery in a 20k drain.
   */
  send(request: SendRequest): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      // Before the pool: a header undici refuses must never reach it (see unsendableHeader). Rows stored
      // before the ways in refused such values still exist.
      const unsendable = unsendableHeader(request.headers);
      if (unsendable) return reject(unsendable);
      const timeoutMs = request.timeoutMs ?? this.limits.timeoutMs;
      // Inside the executor: a pool that cannot be built rejects this promise like any other failure.
      const entry = this.poolFor(request.poolKey, request.url.origin, request.connections, timeoutMs);
      const { pool } = entry;
      // The collector settles once (its first outcome wins), so this counts each request out once.
      entry.inFlight++;
      const done = () => {
        entry.inFlight--;
        entry.lastUsedAt = this.clock.now();
      };
      const collector = new ResponseCollector(
        this.limits,
        timeoutMs,
        request.onHeaders,
        (response) => {
          done();
          resolve(response);
        },
        (error) => {
          done();
          reject(error);
        },
        () => this.retire(request.poolKey, pool),
      );
      pool.dispatch(
        {
          method: request.method ?? 'POST',
          path: request.url.pathname + request.url.search,
          headers: request.headers,
          body: request.body === '' ? null : request.body,
        },
        collector,
      );
    });
  }

  /**
   * Destroys a pool whose connection undici may have left marked busy (see ResponseCollector's
   * onResponseError) and forgets it: the next request to the endpoint gets a new pool. Its other
   * requests in flight fail (a 'network' error, retried; the webhook-id lets a receiver drop the
   * repeat): closing it gracefully would wait for its queue, which a jammed pool never empties.
   * Only a request undici refuses that unsendableHeader did not foresee gets here.
   */
  private retire(key: string, pool: Pool): void {
    if (this.pools.get(key)?.pool === pool) this.pools.delete(key);
    // After the dispatch call that refused the request has returned: not from inside undici's own stack.
    queueMicrotask(() => void pool.destroy().catch(() => {}));
  }

  /** Waits for requests in flight, then closes every connection. */
  async close(): Promise<void> {
    this.stopSweep();
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.close().catch(() => {})));
    this.pools.clear();
  }

  /** Aborts requests in flight and closes every connection at once (forced shutdown). */
  async destroy(): Promise<void> {
    this.stopSweep();
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.destroy().catch(() => {})));
    this.pools.clear();
  }

  /** Open pools, for tests and metrics. */
  get size(): number {
    return this.pools.size;
  }
}

/**
 * Collects one response for send(): its status and headers, and the first keepBytes of its body for
 * the attempt log; up to drainBytes more are read and dropped so the connection can be reused, past
 * that the request is aborted, which closes the socket (cheaper than reading an endless or huge body).
 * One deadline covers connecting, the headers and the whole body: a receiver that drips a byte every
 * 500 ms defeats undici's per-read timeouts but not this. The deadline's error is built only when it
 * fires: capturing a stack per request cost 4% of the worker's CPU in a 20k-delivery drain.
 * undici calls onResponseEnd or onResponseError exactly once for a dispatched request; whichever
 * settles the promise first wins, and what follows (the error of an abort we asked for) is dropped.
 */
class ResponseCollector implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private abortReason: Error | null = null;
  private settled = false;
  private statusCode = 0;
  private headers: Record<string, string> = {};
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private seenBytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limits: HttpLimits,
    timeoutMs: number,
    private readonly headersArrived: (() => void) | undefined,
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (error: Error) => void,
    private readonly refusedBeforeStart: () => void,
  ) {
    this.timer = setTimeout(() => this.abort(new DeadlineError(timeoutMs)), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline passed while the request waited in undici's queue for a connection: it fails now,
    // with the deadline's error, and is never written.
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // A 1xx (103 Early Hints) is not the response: only the final status says the receiver answered
    // (a close after a 103 is still an empty reply), as pool.request() reported it.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = flattenHeaders(headers);
    this.headersArrived?.();
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.seenBytes += chunk.length;
    if (this.keptBytes < this.limits.keepBytes) {
      const slice = chunk.subarray(0, this.limits.keepBytes - this.keptBytes);
      this.kept.push(slice);
      this.keptBytes += slice.length;
    }
    if (this.seenBytes > this.limits.keepBytes + this.limits.drainBytes && !this.settled) {
      this.succeed();
      this.abort(new Error('response body over the drain limit: connection closed'));
    }
  }

  onResponseEnd(): void {
    this.succeed();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    // undici refused to build the request (an argument it finds invalid): its client then stays marked
    // busy with nothing running and never takes another request, and once max_concurrency clients are so
    // marked every request to the endpoint waits in the pool's queue for good, past its deadline (which
    // fails a queued request only when undici takes it). A connect error also arrives before the start,
    // but with another code, and leaves the pool working.
    const code = (error as { code?: string }).code;
    if (this.controller === null && (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED')) {
      this.refusedBeforeStart();
    }
    this.fail(error);
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.resolve({
      statusCode: this.statusCode,
      headers: this.headers,
      body: Buffer.concat(this.kept).toString('utf8'),
      truncated: this.seenBytes > this.keptBytes,
    });
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(error);
  }

  /**
   * Ends the request with `reason`. One that has not started yet cannot be taken out of undici's queue:
   * it fails when undici takes it (onRequestStart aborts it then), so that until then it still holds
   * its place, as its endpoint's slot does (failing it at once freed the slot for another delivery,
   * and each expired request still in the queue later cost a connection opened only to be closed).
   */
  private abort(reason: Error): void {
    this.abortReason = reason;
    if (this.controller === null) return;
    this.fail(reason);
    this.controller.abort(reason);
  }
}

// What undici 7 accepts when it builds a request (lib/core/util.js: isValidHTTPToken, headerCharRegex):
// a name of token characters, a value of tab, visible ASCII, space and Latin-1 (U+0080 to U+00FF).
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSENDABLE_VALUE_CHARACTER = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The first header undici would refuse, as an error naming it, or null. The ways in refuse these
 * (lib/domain/webhooks/header-problem.ts), whose words the message borrows. Two regex tests per header,
 * well under a microsecond for a request's dozen headers.
 */
function unsendableHeader(headers: Record<string, string>): InvalidHeaderError | null {
  for (const [name, value] of Object.entries(headers)) {
    if (HTTP_TOKEN.test(name) && !UNSENDABLE_VALUE_CHARACTER.test(value)) continue;
    return new InvalidHeaderError(
      `header ${JSON.stringify(name)} ${headerProblem(name, value) ?? 'cannot be sent'}; no request was made`,
    );
  }
  return null;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
