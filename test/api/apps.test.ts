// /api/v1/apps: create, list, get, rename, delete, with the errors each can answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { insertDelivery } from './support/world';
import { fanOutQueued } from '../support/deliveries';

let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

describe('POST /apps', () => {
  it('creates an app and answers 201 with it', async () => {
    const response = await call('POST', '/v1/apps', { key: ctx.adminKey, body: { name: '  Acme  ' } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^app_[0-9a-f]{32}$/),
      name: 'Acme',
      retrySchedule: null,
      timeoutMs: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      portalFrameAncestors: [],
      portalName: null,
      portalLogoUrl: null,
      portalAccentColor: null,
    });
    const { rows } = await ctx.db.pool.query('SELECT name FROM hookline.apps WHERE id = $1', [response.body.id]);
    expect(rows).toEqual([{ name: 'Acme' }]);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name'],
    ['a name that is not a string', { name: 42 }, 'name'],
    ['an unknown field', { name: 'ok', colour: 'red' }, ''],
  ])('refuses %s with 422 naming the field, creating nothing', async (_label, body, field) => {
    const before = await countRows(ctx.db.pool, 'apps');
    const response = await call('POST', '/v1/apps', { key: ctx.adminKey, body });
    expectError(response, 422, 'validation_failed', field || undefined);
    if (!field) expect(response.body.error.message).toContain('colour');
    expect(await countRows(ctx.db.pool, 'apps')).toBe(before);
  });

  it('is refused to an app-limited key (403) and without credentials (401)', async () => {
    const appId = await createApp(ctx.db.pool, 'limited');
    const before = await countRows(ctx.db.pool, 'apps');
    expectError(
      await call('POST', '/v1/apps', { key: await appLimitedKey(appId), body: { name: 'x' } }),
      403,
      'key_not_allowed',
    );
    expectError(await call('POST', '/v1/apps', { body: { name: 'x' } }), 401, 'unauthorized');
    expect(await countRows(ctx.db.pool, 'apps')).toBe(before);
  });
});

describe('GET /apps and /apps/{appId}', () => {
  it('lists apps newest first and gets one by id', async () => {
    const first = await createApp(ctx.db.pool, 'first');
    const second = await createApp(ctx.db.pool, 'second');
    const list = await call('GET', '/v1/apps', { key: ctx.adminKey, query: { limit: 250 } });
    expect(list.status, list.text).toBe(200);
    const ids = list.body.data.map((app: { id: string }) => app.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(list.body.nextCursor).toBeNull();

    const one = await call('GET', `/v1/apps/${first}`, { key: ctx.adminKey });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: first, name: 'first' });
  });

  it('lists only the apps whose name or id contains ?search=, in any case, within what the key sees', async () => {
    const quokka = await createApp(ctx.db.pool, 'Quokka Corp');
    const quokkaEu = await createApp(ctx.db.pool, 'quokka_eu');
    const other = await createApp(ctx.db.pool, 'Wombatech');
    await ctx.db.pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_customer_QUOKKA-42', 'Customer 42')`);
    const ids = async (search: string, key = ctx.adminKey) =>
      (await call('GET', '/v1/apps', { key, query: { search, limit: 250 } })).body.data
        .map((app: { id: string }) => app.id)
        .sort();
    expect(await ids('QUOKKA')).toEqual([quokka, quokkaEu, 'app_customer_QUOKKA-42'].sort());
    expect(await ids('a_e')).toEqual([quokkaEu]);
    expect(await ids('%')).toEqual([]);
    expect(await ids('wombatech')).toEqual([other]);
    // A key held to one app finds nothing else, whatever it searches for.
    const limited = await appLimitedKey(other);
    expect(await ids('quokka', limited)).toEqual([]);
    expect(await ids('WOMBAT', limited)).toEqual([other]);
    expectError(
      await call('GET', '/v1/apps', { key: ctx.adminKey, query: { search: 'a'.repeat(201) } }),
      400,
      'invalid_query',
      'search',
    );
  });

  it('answers 404 for an unknown app', async () => {
    expectError(await call('GET', '/v1/apps/app_unknown', { key: ctx.adminKey }), 404, 'not_found');
  });

  it('shows an app-limited key its own app only', async () => {
    const own = await createApp(ctx.db.pool, 'own');
    const other = await createApp(ctx.db.pool, 'other');
    const key = await appLimitedKey(own);
    const list = await call('GET', '/v1/apps', { key });
    expect(list.body.data.map((app: { id: string }) => app.id)).toEqual([own]);
    expect((await call('GET', `/v1/apps/${own}`, { key })).status).toBe(200);
    expectError(await call('GET', `/v1/apps/${other}`, { key }), 404, 'not_found');
  });
});

describe('GET /apps?summary=true', () => {
  it('adds endpoints, the 24 h success rate from the hourly rollups and the live queue by what it waits for', async () => {
    const busy = await createApp(ctx.db.pool, 'summary busy');
    const idle = await createApp(ctx.db.pool, 'summary idle');
    await createEndpoint(ctx.db.pool, busy, 'https://example.com/summary/1');
    await createEndpoint(ctx.db.pool, busy, 'https://example.com/summary/2');
    const zeros = `'{${new Array(15).fill(0).join(',')}}'::bigint[]`;
    // 30 succeeded and 10 failed within the last 24 hours; 1000 failed two days ago, outside it.
    await ctx.db.pool.query(
      `INSERT INTO hookline.stats_app_hourly (hour, app_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('hour', now()), $1, 'succeeded', '', 200, 20, ${zeros}),
              (date_trunc('hour', now()) - interval '23 hours', $1, 'succeeded', '', 200, 10, ${zeros}),
              (date_trunc('hour', now()) - interval '5 hours', $1, 'failed', 'timeout', 0, 10, ${zeros}),
              (date_trunc('hour', now()) - interval '48 hours', $1, 'failed', 'timeout', 0, 1000, ${zeros})`,
      [busy],
    );
    // The queue is counted now: 2 waiting (one due, one held by a disabled endpoint) and a delivering
    // one; dead is not queued. A stale sample of 99 is not read.
    await ctx.db.pool.query(
      `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
       VALUES (date_trunc('minute', now()), $1, 'pending', 99)`,
      [busy],
    );
    const [first, second] = (
      await ctx.db.pool.query<{ id: string }>(`SELECT id FROM hookline.endpoints WHERE app_id = $1 ORDER BY url`, [
        busy,
      ])
    ).rows.map((row) => row.id);
    await ctx.db.pool.query(`UPDATE hookline.endpoints SET enabled = false WHERE id = $1`, [second]);
    await insertDelivery(ctx.db.pool, { appId: busy, endpointId: first!, state: 'pending' });
    await insertDelivery(ctx.db.pool, { appId: busy, endpointId: second!, state: 'pending' });
    await insertDelivery(ctx.db.pool, { appId: busy, endpointId: first!, state: 'delivering', attemptCount: 1 });
    await insertDelivery(ctx.db.pool, { appId: busy, endpointId: first!, state: 'dead', attemptCount: 8 });
    const response = await call('GET', '/v1/apps', { key: ctx.adminKey, query: { summary: 'true' } });
    expect(response.status, response.text).toBe(200);
    const byId = new Map(response.body.data.map((app: { id: string }) => [app.id, app]));
    expect(byId.get(busy)).toMatchObject({
      summary: {
        endpoints: 2,
        attempts24h: 40,
        successRate24h: 0.75,
        queued: 3,
        queue: { worker: 1, circuit: 0, endpointEnabled: 1, retryTime: 0, delivering: 1 },
      },
    });
    expect(byId.get(idle)).toMatchObject({
      summary: {
        endpoints: 0,
        attempts24h: 0,
        successRate24h: null,
        queued: 0,
        queue: { worker: 0, circuit: 0, endpointEnabled: 0, retryTime: 0, delivering: 0 },
      },
    });
    // Without summary=true the list stays as it was.
    const plain = await call('GET', '/v1/apps', { key: ctx.adminKey });
    expect(plain.body.data.every((app: object) => !('summary' in app))).toBe(true);
    expectError(
      await call('GET', '/v1/apps', { key: ctx.adminKey, query: { summary: 'yes' } }),
      400,
      'invalid_query',
      'summary',
    );
  });
});

describe('PATCH /apps/{appId}', () => {
  it('renames the app and moves updatedAt', async () => {
    const appId = await createApp(ctx.db.pool, 'old name');
    await ctx.db.pool.query(`UPDATE hookline.apps SET updated_at = now() - interval '1 hour' WHERE id = $1`, [appId]);
    const response = await call('PATCH', `/v1/apps/${appId}`, { key: ctx.adminKey, body: { name: 'new name' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: appId, name: 'new name' });
    expect(Date.now() - Date.parse(response.body.updatedAt)).toBeLessThan(60_000);
  });

  it('lets an app-limited key rename its own app', async () => {
    const appId = await createApp(ctx.db.pool, 'mine');
    const response = await call('PATCH', `/v1/apps/${appId}`, {
      key: await appLimitedKey(appId),
      body: { name: 'still mine' },
    });
    expect(response.status).toBe(200);
  });

  it('answers 404 for an unknown app and 422 for a blank name', async () => {
    const appId = await createApp(ctx.db.pool, 'keep');
    expectError(
      await call('PATCH', '/v1/apps/app_unknown', { key: ctx.adminKey, body: { name: 'x' } }),
      404,
      'not_found',
    );
    expectError(
      await call('PATCH', `/v1/apps/${appId}`, { key: ctx.adminKey, body: { name: '' } }),
      422,
      'validation_failed',
      'name',
    );
    expect((await ctx.db.pool.query('SELECT name FROM hookline.apps WHERE id = $1', [appId])).rows).toEqual([
      { name: 'keep' },
    ]);
  });
});

describe('DELETE /apps/{appId}', () => {
  it('deletes the app with everything it owns, and its app-limited keys stop working at once', async () => {
    const appId = await createApp(ctx.db.pool, 'doomed');
    const survivor = await createApp(ctx.db.pool, 'survivor');
    for (const app of [appId, survivor]) {
      await createEventType(ctx.db.pool, app, 'invoice.paid');
      await createEndpoint(ctx.db.pool, app, 'https://example.com/hook');
      await ctx.db.pool.query(`SELECT hookline.send($1, 'invoice.paid', '{}')`, [app]);
      await ctx.db.pool.query(`SELECT hookline.send($1, 'invoice.paid', '{"queued": true}')`, [app]);
      await fanOutQueued(ctx.db.pool);
    }
    // One message of each app still waits for its fan-out: it must go with its app too.
    await ctx.db.pool.query(`SELECT hookline.send($1, 'invoice.paid', '{}')`, [appId]);
    const key = await appLimitedKey(appId);
    const survivorKey = await appLimitedKey(survivor);
    expect((await call('GET', `/v1/apps/${appId}`, { key })).status).toBe(200);

    const response = await call('DELETE', `/v1/apps/${appId}`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    // Its message that waited for the fan-out is gone: a fan-out now gives it no delivery.
    await fanOutQueued(ctx.db.pool);
    for (const table of ['apps', 'event_types', 'endpoints', 'messages', 'deliveries', 'api_keys']) {
      const column = table === 'apps' ? 'id' : 'app_id';
      expect(await countRows(ctx.db.pool, table, `${column} = $1`, [appId]), table).toBe(0);
      expect(await countRows(ctx.db.pool, table, `${column} = $1`, [survivor]), table).toBeGreaterThan(0);
    }
    expectError(await call('GET', '/v1/apps', { key }), 401, 'unauthorized');
    expect((await call('GET', '/v1/apps', { key: survivorKey })).status).toBe(200);
    expectError(await call('DELETE', `/v1/apps/${appId}`, { key: ctx.adminKey }), 404, 'not_found');
  });

  it('is refused to an app-limited key, even for its own app', async () => {
    const appId = await createApp(ctx.db.pool, 'protected');
    expectError(await call('DELETE', `/v1/apps/${appId}`, { key: await appLimitedKey(appId) }), 403, 'key_not_allowed');
    expect(await countRows(ctx.db.pool, 'apps', 'id = $1', [appId])).toBe(1);
  });
});
