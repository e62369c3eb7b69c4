// EndpointCache keeps an endpoint's settings for its TTL and then forgets them: entries past the TTL
// are dropped, not only reloaded when asked for again, so deleted endpoints and hookline.http_post's
// implicit ones (one per distinct URL, params and headers) do not grow the worker's memory for good.
import { beforeAll, describe, expect, it } from 'vitest';
import { EndpointCache } from '../../worker/endpoint-cache';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint } from '../support/fixtures';
import { ManualClock } from '../support/manual-clock';

let db: TestDatabase;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
});

describe('EndpointCache', () => {
  it('drops the entries of deleted endpoints once their TTL has passed', async () => {
    const clock = new ManualClock();
    const ttlMs = 2000;
    const cache = new EndpointCache(db.pool, clock, ttlMs);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await createEndpoint(db.pool, appId, `https://example.com/${i}`)).id);
    const kept = await createEndpoint(db.pool, appId, 'https://example.com/kept');

    expect((await cache.get([...ids, kept.id])).size).toBe(21);
    await db.pool.query('DELETE FROM hookline.endpoints WHERE id = ANY($1::text[])', [ids]);
    await clock.advance(ttlMs / 2);
    // Within the TTL: still cached, deleted or not.
    expect((await cache.get([kept.id])).size).toBe(1);
    expect(cache.size).toBe(21);

    await clock.advance(ttlMs / 2);
    expect((await cache.get([kept.id])).get(kept.id)?.url).toBe('https://example.com/kept');
    expect(cache.size).toBe(1);
  });
});
