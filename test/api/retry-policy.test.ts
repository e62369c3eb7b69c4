// Retry policy fields of endpoints and apps through the REST API: what is stored, how the effective
// policy is shown, the errors for bad schedules and timeouts (naming the field, changing nothing),
// the delivery page's "retry n of m", and the OpenAPI document. The worker following the policy is
// test/worker/retry-policy.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { insertDelivery, rowsAsText } from './support/world';

let ctx: ApiTestContext;
let appId: string;

beforeAll(async () => {
  // A deployment schedule unlike the default, so "deployment" values are recognisable.
  ctx = await setUpApiTest({ HOOKLINE_RETRY_SCHEDULE: '0,1s,1m', HOOKLINE_DELIVERY_TIMEOUT_MS: '9000' });
  appId = await createApp(ctx.db.pool, 'retry policy');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
});

afterAll(() => {
  delete process.env.HOOKLINE_RETRY_SCHEDULE;
  delete process.env.HOOKLINE_DELIVERY_TIMEOUT_MS;
  resetApiSettings();
});

const endpoints = () => `/v1/apps/${appId}/endpoints`;

async function storedPolicy(table: 'endpoints' | 'apps', id: string) {
  const { rows } = await ctx.db.pool.query<{ retry_schedule_ms: number[]; timeout_ms: number | null }>(
    `SELECT retry_schedule_ms, timeout_ms FROM hookline.${table} WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe('an endpoint’s retry schedule and timeout', () => {
  it('stores a schedule written as HOOKLINE_RETRY_SCHEDULE writes it, and a timeout', async () => {
    const response = await call('POST', endpoints(), {
      key: ctx.adminKey,
      body: { url: 'https://example.com/own', retrySchedule: '0, 5s, 90s, 2h, 1.5h', timeoutMs: 2500 },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      retrySchedule: '0,5s,90s,2h,90m',
      timeoutMs: 2500,
      retryPolicy: {
        retrySchedule: '0,5s,90s,2h,90m',
        maxAttempts: 5,
        retryScheduleFrom: 'endpoint',
        timeoutMs: 2500,
        timeoutFrom: 'endpoint',
      },
    });
    expect(await storedPolicy('endpoints', response.body.id)).toEqual({
      retry_schedule_ms: [0, 5000, 90_000, 7_200_000, 5_400_000],
      timeout_ms: 2500,
    });
  });

  it('accepts a JSON array of durations (numbers are milliseconds) and null to inherit again', async () => {
    const { id } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/array');
    const set = await call('PATCH', `${endpoints()}/${id}`, {
      key: ctx.adminKey,
      body: { retrySchedule: [0, '250ms', 1500, '1m'] },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.retrySchedule).toBe('0,250ms,1500ms,1m');
    expect((await storedPolicy('endpoints', id))!.retry_schedule_ms).toEqual([0, 250, 1500, 60_000]);

    const cleared = await call('PATCH', `${endpoints()}/${id}`, {
      key: ctx.adminKey,
      body: { retrySchedule: null, timeoutMs: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      retrySchedule: null,
      timeoutMs: null,
      retryPolicy: { retrySchedule: '0,1s,1m', maxAttempts: 3, retryScheduleFrom: 'deployment', timeoutMs: 9000 },
    });
    expect(await storedPolicy('endpoints', id)).toEqual({ retry_schedule_ms: [], timeout_ms: null });
  });

  it('leaves the policy alone when a PATCH does not mention it', async () => {
    const created = await call('POST', endpoints(), {
      key: ctx.adminKey,
      body: { url: 'https://example.com/keep', retrySchedule: '0,1s', timeoutMs: 700 },
    });
    const changed = await call('PATCH', `${endpoints()}/${created.body.id}`, {
      key: ctx.adminKey,
      body: { description: 'renamed' },
    });
    expect(changed.body).toMatchObject({ description: 'renamed', retrySchedule: '0,1s', timeoutMs: 700 });
  });

  it.each([
    ['0,soon', 'retrySchedule.1', /"soon" is not a duration/],
    ['0,5', 'retrySchedule.1', /needs a unit/],
    ['5s,5m', 'retrySchedule.0', /must be 0: the first entry stands for the first attempt/],
    ['0,4d', 'retrySchedule.1', /"4d" is longer than 3d/],
    ['', 'retrySchedule', /at least one delay/],
    [Array.from({ length: 21 }, () => '0').join(','), 'retrySchedule', /at most 20 attempts, got 21/],
    [[0, -5], 'retrySchedule.1', /whole number of milliseconds.*-5/],
    [[0, 1.5], 'retrySchedule.1', /whole number of milliseconds.*1\.5/],
    [[], 'retrySchedule', /at least one delay/],
    [[0, true], 'retrySchedule', /a string such as "0,5s,5m,2h" or an array of durations/],
    [5, 'retrySchedule', /a string such as "0,5s,5m,2h" or an array of durations/],
  ])('refuses the schedule %j naming %s', async (retrySchedule, field, message) => {
    const { id } = await createEndpoint(ctx.db.pool, appId, `https://example.com/bad-${field}`);
    const before = await rowsAsText(ctx.db.pool, 'endpoints', 'id = $1', [id]);
    const response = await call('PATCH', `${endpoints()}/${id}`, { key: ctx.adminKey, body: { retrySchedule } });
    expectError(response, 422, 'validation_failed', field);
    expect(response.body.error.message).toMatch(message);
    expect(await rowsAsText(ctx.db.pool, 'endpoints', 'id = $1', [id])).toEqual(before);
    const created = await call('POST', endpoints(), {
      key: ctx.adminKey,
      body: { url: 'https://example.com/never', retrySchedule },
    });
    expectError(created, 422, 'validation_failed', field);
  });

  it.each([[50], [300_001], [1.5], ['5s']])('refuses the timeout %j naming timeoutMs', async (timeoutMs) => {
    const response = await call('POST', endpoints(), {
      key: ctx.adminKey,
      body: { url: 'https://example.com/bad-timeout', timeoutMs },
    });
    expectError(response, 422, 'validation_failed', 'timeoutMs');
  });
});

describe('an app’s default policy', () => {
  it('is inherited by endpoints that set none, and overridden by those that do', async () => {
    const otherApp = await createApp(ctx.db.pool, 'defaults');
    const own = await createEndpoint(ctx.db.pool, otherApp, 'https://example.com/own');
    const inheriting = await createEndpoint(ctx.db.pool, otherApp, 'https://example.com/inherit');
    await call('PATCH', `/v1/apps/${otherApp}/endpoints/${own.id}`, {
      key: ctx.adminKey,
      body: { retrySchedule: '0,10s', timeoutMs: 1000 },
    });
    const app = await call('PATCH', `/v1/apps/${otherApp}`, {
      key: ctx.adminKey,
      body: { retrySchedule: '0,30s,5m', timeoutMs: 4000 },
    });
    expect(app.status, app.text).toBe(200);
    expect(app.body).toMatchObject({ name: 'defaults', retrySchedule: '0,30s,5m', timeoutMs: 4000 });
    expect(await storedPolicy('apps', otherApp)).toEqual({ retry_schedule_ms: [0, 30_000, 300_000], timeout_ms: 4000 });

    const list = await call('GET', `/v1/apps/${otherApp}/endpoints`, { key: ctx.adminKey });
    const byId = new Map(list.body.data.map((endpoint: { id: string }) => [endpoint.id, endpoint]));
    expect(byId.get(inheriting.id)).toMatchObject({
      retrySchedule: null,
      retryPolicy: { retrySchedule: '0,30s,5m', retryScheduleFrom: 'app', timeoutMs: 4000, timeoutFrom: 'app' },
    });
    expect(byId.get(own.id)).toMatchObject({
      retryPolicy: { retrySchedule: '0,10s', retryScheduleFrom: 'endpoint', timeoutMs: 1000, timeoutFrom: 'endpoint' },
    });

    // A rename keeps the defaults; a bad default is refused and changes nothing.
    const renamed = await call('PATCH', `/v1/apps/${otherApp}`, { key: ctx.adminKey, body: { name: 'renamed' } });
    expect(renamed.body).toMatchObject({ name: 'renamed', retrySchedule: '0,30s,5m', timeoutMs: 4000 });
    const refused = await call('PATCH', `/v1/apps/${otherApp}`, {
      key: ctx.adminKey,
      body: { name: 'never', retrySchedule: '0,1y' },
    });
    expectError(refused, 422, 'validation_failed', 'retrySchedule.1');
    const fetched = await call('GET', `/v1/apps/${otherApp}`, { key: ctx.adminKey });
    expect(fetched.body).toMatchObject({ name: 'renamed', retrySchedule: '0,30s,5m', timeoutMs: 4000 });
  });
});

describe('the delivery page', () => {
  it('counts retries against the schedule of the delivery’s endpoint', async () => {
    const { id: endpointId } = await createEndpoint(ctx.db.pool, appId, 'https://example.com/counted');
    await call('PATCH', `${endpoints()}/${endpointId}`, {
      key: ctx.adminKey,
      body: { retrySchedule: '0,1m,1m,1m,1m' },
    });
    const { deliveryId } = await insertDelivery(ctx.db.pool, {
      appId,
      endpointId,
      attemptCount: 1,
      nextAttemptInSeconds: 60,
      lastStatusCode: 500,
      lastErrorClass: 'http_5xx',
    });
    const response = await call('GET', `/v1/apps/${appId}/deliveries/${deliveryId}`, { key: ctx.adminKey });
    expect(response.status, response.text).toBe(200);
    // The deployment's schedule has 3 attempts; this endpoint's has 5.
    expect(response.body.wait).toMatchObject({ reason: 'retry_scheduled', nextAttempt: 2, maxAttempts: 5 });
    expect(response.body.wait.message).toMatch(/^Retry 1 of 4: attempt 2 of 5 at /);
  });
});

describe('the OpenAPI document', () => {
  it('describes the policy fields of endpoints and apps', async () => {
    const document = (await call('GET', '/v1/openapi.json')).body;
    const body = (path: string, method: string) =>
      document.paths[path][method].requestBody.content['application/json'].schema.properties;
    for (const [path, method] of [
      ['/apps/{appId}/endpoints', 'post'],
      ['/apps/{appId}/endpoints/{endpointId}', 'patch'],
      ['/apps/{appId}', 'patch'],
    ] as const) {
      expect(Object.keys(body(path, method)), `${method} ${path}`).toEqual(
        expect.arrayContaining(['retrySchedule', 'timeoutMs']),
      );
      expect(JSON.stringify(body(path, method).retrySchedule)).toContain('0,5s,5m,2h');
    }
    const endpoint = document.components.schemas.Endpoint.properties;
    expect(Object.keys(endpoint)).toEqual(expect.arrayContaining(['retrySchedule', 'timeoutMs', 'retryPolicy']));
    expect(Object.keys(document.components.schemas.App.properties)).toEqual(
      expect.arrayContaining(['retrySchedule', 'timeoutMs']),
    );
  });
});
