// /api/v1/apps/{appId}/endpoints: create, list, get, change, delete, enable/disable, secrets and their
// rotation, test events and "recover", with the errors each can answer.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../lib/runtime/secret-box';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { runQueuedJobs } from './support/jobs';
import { insertDelivery, rowsAsText } from './support/world';
import { fanOutQueued } from '../support/deliveries';
import { boundedPath } from '../../lib/domain/errors';

let ctx: ApiTestContext;
let appId: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  appId = await createApp(ctx.db.pool, 'endpoints');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  await createEventType(ctx.db.pool, appId, 'user.created');
});

afterEach(() => {
  delete process.env.HOOKLINE_ALLOW_LOOPBACK;
  resetApiSettings();
});

const base = () => `/v1/apps/${appId}/endpoints`;

describe('POST /apps/{appId}/endpoints', () => {
  it('creates an endpoint and returns its signing secret this once', async () => {
    const response = await call('POST', base(), {
      key: ctx.adminKey,
      body: {
        url: 'https://example.com/hooks',
        description: 'billing',
        eventTypes: ['invoice.paid'],
        maxConcurrency: 4,
        rateLimitPerSecond: 20,
        headers: { 'X-Api-Key': 'receiver-secret' },
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      appId,
      url: 'https://example.com/hooks',
      description: 'billing',
      eventTypes: ['invoice.paid'],
      enabled: true,
      maxConcurrency: 4,
      rateLimitPerSecond: 20,
      headers: { 'X-Api-Key': 'receiver-secret' },
      implicit: false,
      method: 'POST',
      health: { circuitState: 'closed', consecutiveFailures: 0, attempts24h: 0, successRate24h: null, pending: 0 },
    });
    expect(response.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
    const { rows } = await ctx.db.pool.query('SELECT secret FROM hookline.endpoint_secrets WHERE endpoint_id = $1', [
      response.body.id,
    ]);
    // Stored encrypted (lib/runtime/secret-box.ts), never as the secret itself.
    expect(rows).toHaveLength(1);
    expect(rows[0].secret).toMatch(/^hlenc:v1:/);
    expect(rows[0].secret).not.toContain(response.body.secret.slice(6));
    expect(decryptSecret(rows[0].secret)).toBe(response.body.secret);
    // The secret is not part of the endpoint as listed or fetched later.
    const fetched = await call('GET', `${base()}/${response.body.id}`, { key: ctx.adminKey });
    expect(fetched.text).not.toContain(response.body.secret);
  });

  it('accepts a secret of the caller, and defaults to all event types and 10 concurrent requests', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const response = await call('POST', base(), {
      key: ctx.adminKey,
      body: { url: 'https://example.com/own-secret', secret },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      secret,
      eventTypes: [],
      maxConcurrency: 10,
      rateLimitPerSecond: null,
      headers: {},
    });
  });

  it.each([
    ['an ftp URL', { url: 'ftp://example.com/x' }, 'url', 'http or https'],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, 'url', 'http or https'],
    ['a file URL', { url: 'file:///etc/passwd' }, 'url', 'http or https'],
    ['text that is not a URL', { url: 'not-a-url' }, 'url', 'not a valid URL'],
    ['a URL with a space', { url: 'https://example.com/a b' }, 'url', 'spaces'],
    ['a URL with a tab, which the URL parser would drop', { url: 'https://exa\tmple.com/' }, 'url', 'spaces'],
    ['a URL with a space before it', { url: ' https://example.com/' }, 'url', 'spaces'],
    [
      'a header name longer than 256 characters',
      { url: 'https://example.com/x', headers: { ['X'.repeat(257)]: 'v' } },
      // Named as error paths always are, cut to 120 characters (lib/domain/errors.ts).
      boundedPath('headers.' + 'X'.repeat(257)),
      '256',
    ],
    ['a URL with credentials', { url: 'https://user:pass@example.com/' }, 'url', 'credentials'],
    ['a loopback address', { url: 'http://127.0.0.1:9/hook' }, 'url', 'refused'],
    ['localhost', { url: 'http://localhost:8080/hook' }, 'url', 'loopback'],
    ['the cloud metadata address', { url: 'http://169.254.169.254/latest/meta-data' }, 'url', 'refused'],
    ['a private address', { url: 'http://10.1.2.3/hook' }, 'url', 'refused'],
    [
      'an unknown event type',
      { url: 'https://example.com/x', eventTypes: ['invoice.paid', 'invoice.lost'] },
      'eventTypes.1',
      'invoice.lost',
    ],
    ['an event type name with spaces', { url: 'https://example.com/x', eventTypes: ['bad name'] }, 'eventTypes.0', ''],
    [
      'a Host header',
      { url: 'https://example.com/x', headers: { Host: 'evil.example' } },
      'headers.Host',
      'cannot be overridden',
    ],
    [
      'a webhook-signature header',
      { url: 'https://example.com/x', headers: { 'Webhook-Signature': 'v1,forged' } },
      'headers.Webhook-Signature',
      'cannot be overridden',
    ],
    [
      'a webhook-id header',
      { url: 'https://example.com/x', headers: { 'webhook-id': 'x' } },
      'headers.webhook-id',
      'cannot be overridden',
    ],
    [
      'another webhook-* header',
      { url: 'https://example.com/x', headers: { 'webhook-version': '2' } },
      'headers.webhook-version',
      'cannot be overridden',
    ],
    [
      'a Content-Type header',
      { url: 'https://example.com/x', headers: { 'content-type': 'text/plain' } },
      'headers.content-type',
      'cannot be overridden',
    ],
    [
      'a Transfer-Encoding header',
      { url: 'https://example.com/x', headers: { 'Transfer-Encoding': 'chunked' } },
      'headers.Transfer-Encoding',
      'cannot be overridden',
    ],
    [
      'CR/LF in a header value',
      { url: 'https://example.com/x', headers: { 'X-A': 'a\r\nX-Injected: 1' } },
      'headers.X-A',
      'CR or LF',
    ],
    ['LF in a header value', { url: 'https://example.com/x', headers: { 'X-A': 'a\nb' } }, 'headers.X-A', 'CR or LF'],
    [
      'CR/LF in a header name',
      { url: 'https://example.com/x', headers: { 'X-A\r\nX-B': 'v' } },
      'headers.X-A\r\nX-B',
      'not a valid header name',
    ],
    [
      'a header name with a colon',
      { url: 'https://example.com/x', headers: { 'X-A: b': 'v' } },
      'headers.X-A: b',
      'not a valid header name',
    ],
    [
      'a control character in a header value',
      { url: 'https://example.com/x', headers: { 'X-A': 'a\u0007b' } },
      'headers.X-A',
      'control characters',
    ],
    [
      'a header given twice',
      { url: 'https://example.com/x', headers: { 'X-A': '1', 'x-a': '2' } },
      'headers.x-a',
      'twice',
    ],
    [
      '51 headers',
      {
        url: 'https://example.com/x',
        headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])),
      },
      'headers',
      '50',
    ],
    ['a malformed secret', { url: 'https://example.com/x', secret: 'hunter2' }, 'secret', 'whsec_'],
    ['maxConcurrency 0', { url: 'https://example.com/x', maxConcurrency: 0 }, 'maxConcurrency', ''],
    ['maxConcurrency 1001', { url: 'https://example.com/x', maxConcurrency: 1001 }, 'maxConcurrency', ''],
    ['a fractional rate limit', { url: 'https://example.com/x', rateLimitPerSecond: 1.5 }, 'rateLimitPerSecond', ''],
    ['a missing url', { description: 'no url' }, 'url', ''],
    ['an unknown field', { url: 'https://example.com/x', followRedirects: true }, '', 'followRedirects'],
  ])('refuses %s with 422 naming the field, creating nothing', async (_label, body, field, words) => {
    const before = await countRows(ctx.db.pool, 'endpoints');
    const response = await call('POST', base(), { key: ctx.adminKey, body });
    expectError(response, 422, 'validation_failed', field);
    expect(response.body.error.message).toContain(words);
    expect(await countRows(ctx.db.pool, 'endpoints')).toBe(before);
  });

  it('accepts loopback URLs when HOOKLINE_ALLOW_LOOPBACK is set', async () => {
    process.env.HOOKLINE_ALLOW_LOOPBACK = 'true';
    resetApiSettings();
    const response = await call('POST', base(), { key: ctx.adminKey, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(response.status, response.text).toBe(201);
  });

  it('answers 404 for an unknown app whatever the body', async () => {
    expectError(
      await call('POST', '/v1/apps/app_unknown/endpoints', { key: ctx.adminKey, body: { url: 'ftp://x' } }),
      404,
      'not_found',
    );
  });
});

describe('GET /apps/{appId}/endpoints[/{endpointId}]', () => {
  it('lists endpoints with their health and gets one', async () => {
    const app = await createApp(ctx.db.pool, 'health');
    const healthy = await createEndpoint(ctx.db.pool, app, 'https://example.com/healthy');
    const failing = await createEndpoint(ctx.db.pool, app, 'https://example.com/failing');
    await ctx.db.pool.query(
      `UPDATE hookline.endpoints SET consecutive_failures = 7, circuit_state = 'open', last_error_class = 'timeout',
              last_failure_at = now() WHERE id = $1`,
      [failing.id],
    );
    // 24 h figures come from the rollups: this hour, 3 of 4 attempts failed; one delivery waits.
    await ctx.db.pool.query(
      `INSERT INTO hookline.stats_minutely (minute, app_id, endpoint_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('minute', now()), $1, $2, 'succeeded', '', 200, 1, '{}'),
              (date_trunc('minute', now()), $1, $2, 'failed', 'timeout', 0, 3, '{}'),
              (now() - interval '2 days', $1, $2, 'failed', 'timeout', 0, 100, '{}')`,
      [app, failing.id],
    );
    // Whole hours come from the hourly rollups: 6 more successes five hours ago; a day and a half ago is out.
    await ctx.db.pool.query(
      `INSERT INTO hookline.stats_hourly (hour, app_id, endpoint_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('hour', now()) - interval '5 hours', $1, $2, 'succeeded', '', 200, 6, '{}'),
              (date_trunc('hour', now()) - interval '36 hours', $1, $2, 'failed', 'timeout', 0, 100, '{}')`,
      [app, failing.id],
    );
    await insertDelivery(ctx.db.pool, { appId: app, endpointId: failing.id, state: 'pending' });
    await insertDelivery(ctx.db.pool, { appId: app, endpointId: failing.id, state: 'dead' });

    const list = await call('GET', `/v1/apps/${app}/endpoints`, { key: ctx.adminKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([failing.id, healthy.id]);
    expect(list.body.data[0].health).toEqual({
      circuitState: 'open',
      consecutiveFailures: 7,
      lastSuccessAt: null,
      lastFailureAt: expect.any(String),
      lastErrorClass: 'timeout',
      successRate24h: 0.7,
      attempts24h: 10,
      pending: 1,
      pendingCapped: false,
    });
    expect(list.body.data[1].health).toMatchObject({
      circuitState: 'closed',
      attempts24h: 0,
      successRate24h: null,
      pending: 0,
    });

    const one = await call('GET', `/v1/apps/${app}/endpoints/${failing.id}`, { key: ctx.adminKey });
    expect(one.status).toBe(200);
    // The list's item, and whether its rate limit holds deliveries back now (a single endpoint only).
    expect(one.body).toEqual({ ...list.body.data[0], heldByRateLimit: false });
    expectError(await call('GET', `/v1/apps/${app}/endpoints/ep_unknown`, { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('GET /apps/{appId}/endpoints?search=', () => {
  it("lists only the app's endpoints whose URL, description or id contains it, in any case", async () => {
    const app = await createApp(ctx.db.pool, 'endpoint search');
    const billing = await createEndpoint(ctx.db.pool, app, 'https://billing.example.com/hooks');
    const described = await createEndpoint(ctx.db.pool, app, 'https://a.example.com/x');
    await ctx.db.pool.query(`UPDATE hookline.endpoints SET description = 'Customer 42_eu' WHERE id = $1`, [
      described.id,
    ]);
    await createEndpoint(ctx.db.pool, app, 'https://other.example.com/hooks');
    const elsewhere = await createApp(ctx.db.pool, 'endpoint search, another app');
    await createEndpoint(ctx.db.pool, elsewhere, 'https://billing.example.com/other-app');
    const ids = async (search: string) =>
      (await call('GET', `/v1/apps/${app}/endpoints`, { key: ctx.adminKey, query: { search } })).body.data
        .map((endpoint: { id: string }) => endpoint.id)
        .sort();
    expect(await ids('BILLING')).toEqual([billing.id]);
    expect(await ids('2_e')).toEqual([described.id]);
    expect(await ids('%')).toEqual([]);
    expect(await ids(billing.id.slice(-8))).toEqual([billing.id]);
  });
});

describe('PATCH /apps/{appId}/endpoints/{endpointId}', () => {
  it('changes only the given fields', async () => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/before');
    const response = await call('PATCH', `${base()}/${id}`, {
      key: ctx.adminKey,
      body: {
        url: 'https://example.com/after',
        eventTypes: ['user.created'],
        headers: { Authorization: 'Bearer receiver' },
        rateLimitPerSecond: 5,
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      url: 'https://example.com/after',
      eventTypes: ['user.created'],
      headers: { Authorization: 'Bearer receiver' },
      rateLimitPerSecond: 5,
      maxConcurrency: 10,
      description: '',
    });
    const cleared = await call('PATCH', `${base()}/${id}`, {
      key: ctx.adminKey,
      body: { rateLimitPerSecond: null, eventTypes: [] },
    });
    expect(cleared.body).toMatchObject({ rateLimitPerSecond: null, eventTypes: [], url: 'https://example.com/after' });
  });

  it.each([
    ['a non-http URL', { url: 'gopher://example.com' }, 'url'],
    ['a webhook-timestamp header', { headers: { 'webhook-timestamp': '1' } }, 'headers.webhook-timestamp'],
    ['CR/LF in a header value', { headers: { 'X-A': 'x\r\n' } }, 'headers.X-A'],
    ['an unknown event type', { eventTypes: ['nope.never'] }, 'eventTypes.0'],
  ])('refuses %s with 422 naming the field, changing nothing', async (_label, body, field) => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/unchanged');
    const before = await rowsAsText(ctx.db.pool, 'endpoints', 'id = $1', [id]);
    expectError(await call('PATCH', `${base()}/${id}`, { key: ctx.adminKey, body }), 422, 'validation_failed', field);
    expect(await rowsAsText(ctx.db.pool, 'endpoints', 'id = $1', [id])).toEqual(before);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expectError(
      await call('PATCH', `${base()}/ep_unknown`, { key: ctx.adminKey, body: { description: 'x' } }),
      404,
      'not_found',
    );
  });
});

describe('DELETE /apps/{appId}/endpoints/{endpointId}', () => {
  it('deletes the endpoint with its secrets and deliveries, and nothing of other endpoints', async () => {
    const doomed = await createEndpoint(ctx.db.pool, appId, 'https://example.com/doomed');
    const kept = await createEndpoint(ctx.db.pool, appId, 'https://example.com/kept');
    await insertDelivery(ctx.db.pool, { appId, endpointId: doomed.id });
    await insertDelivery(ctx.db.pool, { appId, endpointId: kept.id });
    const keptRows = await rowsAsText(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [kept.id]);

    const response = await call('DELETE', `${base()}/${doomed.id}`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(204);
    expect(await countRows(ctx.db.pool, 'endpoints', 'id = $1', [doomed.id])).toBe(0);
    expect(await countRows(ctx.db.pool, 'endpoint_secrets', 'endpoint_id = $1', [doomed.id])).toBe(0);
    expect(await countRows(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [doomed.id])).toBe(0);
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [kept.id])).toEqual(keptRows);
    expectError(await call('DELETE', `${base()}/${doomed.id}`, { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('POST /apps/{appId}/endpoints/{endpointId}/disable and /enable', () => {
  it('a disabled endpoint gets no deliveries of new messages; enabling closes its circuit', async () => {
    const app = await createApp(ctx.db.pool, 'toggle');
    await createEventType(ctx.db.pool, app, 'invoice.paid');
    const { id } = await createEndpoint(ctx.db.pool, app, 'https://example.com/toggle');
    await ctx.db.pool.query(
      `UPDATE hookline.endpoints SET consecutive_failures = 12, circuit_state = 'open', circuit_open_until = now() + interval '1 hour'
        WHERE id = $1`,
      [id],
    );
    const path = `/v1/apps/${app}/endpoints/${id}`;
    const send = () =>
      call('POST', `/v1/apps/${app}/messages`, { key: ctx.adminKey, body: { eventType: 'invoice.paid', payload: {} } });

    const disabled = await call('POST', `${path}/disable`, {
      key: ctx.adminKey,
      body: { reason: 'receiver migrating' },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({
      enabled: false,
      disabledReason: 'receiver migrating',
      disabledAt: expect.any(String),
    });
    expect((await send()).status).toBe(202);
    await fanOutQueued(ctx.db.pool);
    expect(await countRows(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [id])).toBe(0);

    const enabled = await call('POST', `${path}/enable`, { key: ctx.adminKey });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    expect(enabled.body.health).toMatchObject({ circuitState: 'closed', consecutiveFailures: 0 });
    expect((await send()).status).toBe(202);
    await fanOutQueued(ctx.db.pool);
    expect(await countRows(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [id])).toBe(1);
  });

  it('disable without a body records a default reason; unknown endpoints are 404', async () => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/no-reason');
    const response = await call('POST', `${base()}/${id}/disable`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(200);
    expect(response.body.disabledReason).toBe('Disabled by an operator');
    expectError(await call('POST', `${base()}/ep_unknown/disable`, { key: ctx.adminKey }), 404, 'not_found');
    expectError(await call('POST', `${base()}/ep_unknown/enable`, { key: ctx.adminKey }), 404, 'not_found');
    expectError(
      await call('POST', `${base()}/${id}/disable`, { key: ctx.adminKey, body: { reason: 'r'.repeat(501) } }),
      422,
      'validation_failed',
      'reason',
    );
  });
});

describe('secrets: GET /secret and POST /rotate-secret', () => {
  const secretsOf = async (id: string) =>
    (await call('GET', `${base()}/${id}/secret`, { key: ctx.adminKey })).body.secrets;

  it('rotation adds a new secret; the old one keeps signing for the grace period, then only the new one', async () => {
    const endpoint = await createEndpoint(ctx.db.pool, appId, 'https://example.com/rotate');
    expect(await secretsOf(endpoint.id)).toEqual([
      { secret: endpoint.secret, createdAt: expect.any(String), expiresAt: null },
    ]);

    const rotated = await call('POST', `${base()}/${endpoint.id}/rotate-secret`, {
      key: ctx.adminKey,
      body: { gracePeriodSeconds: 3600 },
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const during = await secretsOf(endpoint.id);
    expect(during.map((s: { secret: string }) => s.secret)).toEqual([rotated.body.secret, endpoint.secret]);
    expect(during[0].expiresAt).toBeNull();
    expect(Math.abs(Date.parse(during[1].expiresAt) - (Date.now() + 3_600_000))).toBeLessThan(30_000);

    // A second rotation with no grace period retires every older secret at once.
    const again = await call('POST', `${base()}/${endpoint.id}/rotate-secret`, {
      key: ctx.adminKey,
      body: { gracePeriodSeconds: 0 },
    });
    expect((await secretsOf(endpoint.id)).map((s: { secret: string }) => s.secret)).toEqual([again.body.secret]);
  });

  it('defaults to a grace period of one day, and never extends an old secret that expires sooner', async () => {
    const endpoint = await createEndpoint(ctx.db.pool, appId, 'https://example.com/rotate-default');
    await call('POST', `${base()}/${endpoint.id}/rotate-secret`, {
      key: ctx.adminKey,
      body: { gracePeriodSeconds: 60 },
    });
    const rotated = await call('POST', `${base()}/${endpoint.id}/rotate-secret`, { key: ctx.adminKey });
    expect(rotated.status, rotated.text).toBe(200);
    const secrets = await secretsOf(endpoint.id);
    expect(secrets).toHaveLength(3);
    const expiry = (secret: string) =>
      Date.parse(secrets.find((s: { secret: string }) => s.secret === secret).expiresAt);
    expect(Math.abs(expiry(endpoint.secret) - (Date.now() + 60_000))).toBeLessThan(30_000);
    expect(Math.abs(expiry(secrets[1].secret) - (Date.now() + 86_400_000))).toBeLessThan(30_000);
  });

  it.each([
    ['a negative grace period', { gracePeriodSeconds: -1 }],
    ['more than 7 days', { gracePeriodSeconds: 7 * 86_400 + 1 }],
    ['a fractional grace period', { gracePeriodSeconds: 1.5 }],
  ])('refuses %s with 422, changing no secret', async (_label, body) => {
    const endpoint = await createEndpoint(ctx.db.pool, appId, 'https://example.com/rotate-bad');
    const before = await rowsAsText(ctx.db.pool, 'endpoint_secrets', 'endpoint_id = $1', [endpoint.id]);
    expectError(
      await call('POST', `${base()}/${endpoint.id}/rotate-secret`, { key: ctx.adminKey, body }),
      422,
      'validation_failed',
      'gracePeriodSeconds',
    );
    expect(await rowsAsText(ctx.db.pool, 'endpoint_secrets', 'endpoint_id = $1', [endpoint.id])).toEqual(before);
  });

  it('answers 404 for an unknown endpoint', async () => {
    expectError(await call('GET', `${base()}/ep_unknown/secret`, { key: ctx.adminKey }), 404, 'not_found');
    expectError(
      await call('POST', `${base()}/ep_unknown/rotate-secret`, { key: ctx.adminKey, body: {} }),
      404,
      'not_found',
    );
  });
});

describe('POST /apps/{appId}/endpoints/{endpointId}/test', () => {
  it('records a test message with one delivery to this endpoint only, even when disabled or filtered', async () => {
    const target = await createEndpoint(ctx.db.pool, appId, 'https://example.com/test-target', {
      eventTypes: ['user.created'],
      enabled: false,
    });
    const bystander = await createEndpoint(ctx.db.pool, appId, 'https://example.com/bystander');
    const response = await call('POST', `${base()}/${target.id}/test`, { key: ctx.adminKey, body: {} });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({
      appId,
      eventType: 'hookline.test',
      payload: { test: true, endpointId: target.id },
    });
    const deliveries = await ctx.db.pool.query(
      'SELECT endpoint_id, state FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
      [response.body.id],
    );
    expect(deliveries.rows).toEqual([{ endpoint_id: target.id, state: 'pending' }]);
    expect(await countRows(ctx.db.pool, 'deliveries', 'endpoint_id = $1', [bystander.id])).toBe(0);
  });

  it('sends the event type asked for, and refuses a malformed one', async () => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/test-typed');
    const response = await call('POST', `${base()}/${id}/test`, {
      key: ctx.adminKey,
      body: { eventType: 'invoice.paid' },
    });
    expect(response.body.eventType).toBe('invoice.paid');
    expectError(
      await call('POST', `${base()}/${id}/test`, { key: ctx.adminKey, body: { eventType: 'not valid' } }),
      422,
      'validation_failed',
      'eventType',
    );
    expectError(await call('POST', `${base()}/ep_unknown/test`, { key: ctx.adminKey, body: {} }), 404, 'not_found');
  });
});

describe('POST /apps/{appId}/endpoints/{endpointId}/recover', () => {
  it('replays every failed or dead delivery of the endpoint created since the time, and nothing else', async () => {
    const app = await createApp(ctx.db.pool, 'recover');
    const endpoint = await createEndpoint(ctx.db.pool, app, 'https://example.com/recover');
    const other = await createEndpoint(ctx.db.pool, app, 'https://example.com/other');
    const at = (fixture: Parameters<typeof insertDelivery>[1]) =>
      insertDelivery(ctx.db.pool, fixture).then((row) => row.deliveryId);
    const own = { appId: app, endpointId: endpoint.id };
    const dead = await at({
      ...own,
      state: 'dead',
      attemptCount: 8,
      createdSecondsAgo: 600,
      lastErrorClass: 'timeout',
    });
    const retrying = await at({
      ...own,
      state: 'pending',
      attemptCount: 2,
      nextAttemptInSeconds: 3600,
      createdSecondsAgo: 300,
    });
    const untouched = [
      await at({ ...own, state: 'dead', attemptCount: 8, createdSecondsAgo: 7200 }), // before `since`
      await at({ ...own, state: 'succeeded', attemptCount: 1, createdSecondsAgo: 60 }),
      await at({ ...own, state: 'cancelled', createdSecondsAgo: 60 }),
      await at({ ...own, state: 'delivering', attemptCount: 1, createdSecondsAgo: 60 }),
      await at({ ...own, state: 'pending', attemptCount: 0, nextAttemptInSeconds: 3600, createdSecondsAgo: 60 }), // never failed
      await at({ appId: app, endpointId: other.id, state: 'dead', attemptCount: 8, createdSecondsAgo: 60 }),
    ];
    const untouchedBefore = await rowsAsText(ctx.db.pool, 'deliveries', `hookline.public_id('dlv', id) = ANY($1)`, [
      untouched,
    ]);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const everyRowBefore = await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [app]);

    // A dry run counts what a recover would replay, for the dashboard's confirmation, and changes nothing.
    const dryRun = await call('POST', `/v1/apps/${app}/endpoints/${endpoint.id}/recover`, {
      key: ctx.adminKey,
      body: { since, dryRun: true },
    });
    expect(dryRun.status, dryRun.text).toBe(200);
    expect(dryRun.body).toEqual({ matched: 2 });
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [app])).toEqual(everyRowBefore);

    const response = await call('POST', `/v1/apps/${app}/endpoints/${endpoint.id}/recover`, {
      key: ctx.adminKey,
      body: { since },
    });
    expect(response.status, response.text).toBe(200);
    // The recover runs as a background job whose total is the dry run's count.
    expect(response.body.job).toMatchObject({ kind: 'recover', state: 'queued', total: 2 });
    expect(await rowsAsText(ctx.db.pool, 'deliveries', 'app_id = $1', [app])).toEqual(everyRowBefore);
    await runQueuedJobs(ctx.db.url);
    const job = await call('GET', `/v1/apps/${app}/jobs/${response.body.job.id}`, { key: ctx.adminKey });
    expect(job.body).toMatchObject({ state: 'succeeded', total: 2, processed: 2 });
    const { rows } = await ctx.db.pool.query<{ id: string; state: string; due: boolean; attempt_count: number }>(
      `SELECT hookline.public_id('dlv', id) AS id, state, next_attempt_at <= now() AS due, attempt_count
         FROM hookline.deliveries WHERE hookline.public_id('dlv', id) = ANY($1) ORDER BY attempt_count DESC`,
      [[dead, retrying]],
    );
    expect(rows).toEqual([
      { id: dead, state: 'pending', due: true, attempt_count: 8 },
      { id: retrying, state: 'pending', due: true, attempt_count: 2 },
    ]);
    expect(await rowsAsText(ctx.db.pool, 'deliveries', `hookline.public_id('dlv', id) = ANY($1)`, [untouched])).toEqual(
      untouchedBefore,
    );
  });

  it('requires `since` as an ISO-8601 time, `dryRun` as a boolean (422) and a known endpoint (404)', async () => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/recover-bad');
    expectError(
      await call('POST', `${base()}/${id}/recover`, { key: ctx.adminKey, body: {} }),
      422,
      'validation_failed',
      'since',
    );
    expectError(
      await call('POST', `${base()}/${id}/recover`, {
        key: ctx.adminKey,
        body: { since: new Date().toISOString(), dryRun: 'yes' },
      }),
      422,
      'validation_failed',
      'dryRun',
    );
    expectError(
      await call('POST', `${base()}/${id}/recover`, { key: ctx.adminKey, body: { since: 'yesterday' } }),
      422,
      'validation_failed',
      'since',
    );
    expectError(
      await call('POST', `${base()}/${id}/recover`, { key: ctx.adminKey, body: { since: '0000-01-01T00:00:00Z' } }),
      422,
      'validation_failed',
      'since',
    );
    expectError(
      await call('POST', `${base()}/ep_unknown/recover`, {
        key: ctx.adminKey,
        body: { since: new Date().toISOString() },
      }),
      404,
      'not_found',
    );
  });
});
