// An endpoint's rate limit (rate_limit_per_second), held by every worker together: before a batch is
// sent, the deliveries of limited endpoints take tokens from their endpoint's bucket in the database,
// one statement for the batch (sql/take-endpoint-tokens.sql). What gets a token is sent; the rest go
// back to the queue unspent, each due when the bucket will have a token for it, spread at the
// endpoint's rate, so they come back in order and not all at once. A bucket holds one second's worth,
// so an endpoint limited to 50/s receives at most 50 + 50·t requests in any t seconds.
// If the bucket cannot be read (the database failed), the limited deliveries wait a second instead of
// going out unmetered: the limit is a promise to the receiver.
import type { Pool } from '../lib/database/pg';
import type { Clock } from './clock';
import type { EndpointSettings } from './deliver';
import { statements } from './statements';

interface Limited {
  endpoint: EndpointSettings;
}

export interface RateDecision<T> {
  send: T[];
  /** Not this time: each due again when a token will be there for it. */
  later: { item: T; dueAt: Date }[];
}

export async function applyRateLimits<T extends Limited>(
  pool: Pool,
  batch: T[],
  clock: Clock,
): Promise<RateDecision<T>> {
  const byEndpoint = new Map<string, T[]>();
  const send: T[] = [];
  for (const item of batch) {
    if (!item.endpoint.rateLimitPerSecond) send.push(item);
    else {
      const items = byEndpoint.get(item.endpoint.id);
      if (items) items.push(item);
      else byEndpoint.set(item.endpoint.id, [item]);
    }
  }
  if (byEndpoint.size === 0) return { send, later: [] };
  const groups = [...byEndpoint.values()];
  const later: RateDecision<T>['later'] = [];
  let rows: { endpoint_id: string; granted: number; tokens: number; rate: number }[];
  try {
    ({ rows } = await statements.takeEndpointTokens.run(pool, {
      endpointIds: groups.map((items) => items[0]!.endpoint.id),
      wanted: groups.map((items) => items.length),
      ratesPerSecond: groups.map((items) => items[0]!.endpoint.rateLimitPerSecond ?? null),
    }));
  } catch {
    const dueAt = new Date(clock.now() + 1000);
    for (const items of groups) for (const item of items) later.push({ item, dueAt });
    return { send, later };
  }
  const now = clock.now();
  for (const row of rows) {
    const items = byEndpoint.get(row.endpoint_id)!;
    send.push(...items.slice(0, row.granted));
    // The j-th one left waits for the bucket's (j+1)-th next token: (j + 1 - tokens) / rate seconds.
    items.slice(row.granted).forEach((item, j) => {
      later.push({ item, dueAt: new Date(now + Math.ceil(((j + 1 - row.tokens) / row.rate) * 1000)) });
    });
  }
  return { send, later };
}
