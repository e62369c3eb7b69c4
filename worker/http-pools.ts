// Keep-alive connection pools, one per endpoint and origin, each capped at the endpoint's
// max_concurrency: 100,000 deliveries to one endpoint reuse at most that many TCP connections,
// where pg_net opens one per request and runs out of ephemeral ports.
import { Pool, type Dispatcher } from 'undici';
import type { AddressPolicyOptions } from '../lib/domain/webhooks/address-policy';
import { DeadlineError } from './classify-error';
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

export class HttpPools {
  private readonly pools = new Map<string, { pool: Pool; connections: number; origin: string }>();
  private readonly connector: ReturnType<typeof createPinnedConnector>;

  constructor(
    private readonly limits: HttpLimits,
    policy: AddressPolicyOptions,
    resolve?: Resolver,
  ) {
    this.connector = createPinnedConnector(policy, { connectTimeoutMs: limits.timeoutMs, resolve });
  }

  private poolFor(key: string, origin: string, connections: number): Pool {
    const existing = this.pools.get(key);
    if (existing && existing.origin === origin && existing.connections === connections) return existing.pool;
    if (existing) void existing.pool.close();
    const pool = new Pool(origin, {
      connections,
      pipelining: 1,
      connect: this.connector,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      // The per-attempt deadline in send() is what limits an attempt; these only back it up, at the
      // largest per-endpoint timeout allowed (endpoints.timeout_ms <= 300,000).
      headersTimeout: 300_000,
      bodyTimeout: 300_000,
    });
    this.pools.set(key, { pool, connections, origin });
    return pool;
  }

  async send(request: SendRequest): Promise<HttpResponse> {
    const pool = this.poolFor(request.poolKey, request.url.origin, request.connections);
    const timeoutMs = request.timeoutMs ?? this.limits.timeoutMs;
    const controller = new AbortController();
    // The error is built only when the deadline fires: capturing a stack per request cost 4% of the
    // worker's CPU in a 20k-delivery drain (bench --profile).
    const timer = setTimeout(() => controller.abort(new DeadlineError(timeoutMs)), timeoutMs);
    try {
      const response: Dispatcher.ResponseData = await pool.request({
        method: request.method ?? 'POST',
        path: request.url.pathname + request.url.search,
        headers: request.headers,
        body: request.body === '' ? undefined : request.body,
        signal: controller.signal,
      });
      request.onHeaders?.();
      const { body, truncated } = await readBounded(response.body, this.limits);
      return { statusCode: response.statusCode, headers: flattenHeaders(response.headers), body, truncated };
    } catch (error) {
      throw controller.signal.aborted ? (controller.signal.reason as Error) : error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for requests in flight, then closes every connection. */
  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.close().catch(() => {})));
    this.pools.clear();
  }

  /** Aborts requests in flight and closes every connection at once (forced shutdown). */
  async destroy(): Promise<void> {
    await Promise.all([...this.pools.values()].map(({ pool }) => pool.destroy().catch(() => {})));
    this.pools.clear();
  }

  /** Open pools, for tests and metrics. */
  get size(): number {
    return this.pools.size;
  }
}

/**
 * Reads a response body, keeping its first keepBytes for the attempt log and dropping up to
 * drainBytes more so the connection can be reused; past that the socket is closed. Stream events, not
 * `for await`: the async iterator cost a promise per chunk and ~4 µs per delivery in a 20k drain's
 * profile, for bodies that are mostly a few bytes.
 */
function readBounded(
  body: Dispatcher.ResponseData['body'],
  limits: HttpLimits,
): Promise<{ body: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let seenBytes = 0;
    const done = () => resolve({ body: Buffer.concat(kept).toString('utf8'), truncated: seenBytes > keptBytes });
    const onData = (chunk: Buffer) => {
      seenBytes += chunk.length;
      if (keptBytes < limits.keepBytes) {
        const slice = chunk.subarray(0, limits.keepBytes - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
      if (seenBytes > limits.keepBytes + limits.drainBytes) {
        // Enough: closing the socket is cheaper than reading an endless or huge body.
        body.off('data', onData);
        body.off('end', done);
        body.off('error', reject);
        body.on('error', () => {});
        body.destroy();
        done();
      }
    };
    body.on('data', onData);
    body.once('end', done);
    body.once('error', reject);
    // A body closed without its end or an error would otherwise leave the attempt waiting for ever
    // (after a normal end this comes second and changes nothing).
    body.once('close', () => reject(new Error('the response body closed before it ended')));
  });
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
