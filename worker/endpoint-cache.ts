// Endpoint settings and secrets, cached for a few seconds so a batch of claims costs one lookup of
// the endpoints it has not seen lately instead of a join per delivery. The TTL bounds how long an
// edit (new URL, rotated secret, disable, retry policy of the endpoint or its app) takes to reach
// every worker: 2 s by default.
import type { Pool } from '../lib/database/pg';
import { decryptSecret } from '../lib/runtime/secret-box';
import { realClock, type Clock } from './clock';
import type { EndpointSettings } from './deliver';
import type { HttpMethod } from './http-pools';
import { statements } from './statements';

/** An endpoint as worker/sql/load-endpoints.sql reads it. */
export interface EndpointRow {
  id: string;
  app_id: string;
  url: string;
  enabled: boolean;
  max_concurrency: number;
  rate_limit_per_second: number | null;
  headers: Record<string, string>;
  implicit: boolean;
  timeout_ms: number | null;
  retry_schedule_ms: number[];
  raw_body: boolean;
  secrets: string[];
  method: HttpMethod;
}

export class EndpointCache {
  private readonly entries = new Map<string, { settings: EndpointSettings | null; loadedAt: number }>();
  private prunedAt: number;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock = realClock,
    private readonly ttlMs = 2000,
  ) {
    this.prunedAt = clock.now();
  }

  /** Entries held, expired or not: for tests. */
  get size(): number {
    return this.entries.size;
  }

  /** Settings for each id; a missing entry means the endpoint was deleted. */
  async get(ids: Iterable<string>): Promise<Map<string, EndpointSettings>> {
    const now = this.clock.now();
    this.pruneExpired(now);
    const found = new Map<string, EndpointSettings>();
    const stale: string[] = [];
    for (const id of new Set(ids)) {
      const entry = this.entries.get(id);
      if (entry && now - entry.loadedAt < this.ttlMs) {
        if (entry.settings) found.set(id, entry.settings);
      } else stale.push(id);
    }
    if (stale.length > 0) {
      const { rows } = await statements.loadEndpoints.run(this.pool, { endpointIds: stale });
      for (const id of stale) this.entries.set(id, { settings: null, loadedAt: now });
      for (const row of rows) {
        const settings: EndpointSettings = {
          id: row.id,
          appId: row.app_id,
          url: row.url,
          enabled: row.enabled,
          maxConcurrency: row.max_concurrency,
          rateLimitPerSecond: row.rate_limit_per_second,
          headers: row.headers,
          // Stored encrypted (lib/runtime/secret-box.ts); plaintext rows pass through until sealed.
          secrets: row.secrets.map((secret) => decryptSecret(secret)),
          implicit: row.implicit,
          timeoutMs: row.timeout_ms,
          retryScheduleMs: row.retry_schedule_ms.length > 0 ? row.retry_schedule_ms : null,
          rawBody: row.raw_body,
          method: row.method,
        };
        this.entries.set(row.id, { settings, loadedAt: now });
        found.set(row.id, settings);
      }
    }
    return found;
  }

  /**
   * Drops the entries past their TTL, at most once a TTL: an expired entry is loaded again before it is
   * used, so it only held memory. Kept, they grew with every endpoint ever delivered to (deleted ones,
   * and hookline.http_post's implicit endpoints, one per distinct URL, params and headers).
   */
  private pruneExpired(now: number): void {
    if (now - this.prunedAt < this.ttlMs) return;
    this.prunedAt = now;
    for (const [id, entry] of this.entries) if (now - entry.loadedAt >= this.ttlMs) this.entries.delete(id);
  }
}
