// Retry policy per endpoint and per app, end to end: set through the REST API, followed by a real
// worker against loopback receivers. The worker's own schedule is the test default [0, 200 ms,
// 400 ms] (3 attempts) and its timeout 2 s, so a test passing on those would show in the gaps, the
// attempt counts and the durations below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, setUpApiTest, type ApiTestContext } from '../api/support/api';
import { attemptsOf, sendEvent, waitForDelivery } from '../support/deliveries';
import { createApp, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let ctx: ApiTestContext;
const receivers: Receiver[] = [];

beforeAll(async () => {
  ctx = await setUpApiTest({ HOOKLINE_ALLOW_LOOPBACK: 'true' });
  await startTestWorker(ctx.db.url);
});

afterAll(async () => {
  await stopTestWorkers();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

async function newApp(name: string, eventTypes: string[]): Promise<string> {
  const appId = await createApp(ctx.db.pool, name);
  for (const eventType of eventTypes) await createEventType(ctx.db.pool, appId, eventType);
  return appId;
}

async function createEndpoint(appId: string, body: Record<string, unknown>): Promise<string> {
  const response = await call('POST', `/v1/apps/${appId}/endpoints`, { key: ctx.adminKey, body });
  expect(response.status, response.text).toBe(201);
  return response.body.id as string;
}

const gapsOf = (requests: { receivedAt: number }[]) =>
  requests.slice(1).map((request, index) => request.receivedAt - requests[index]!.receivedAt);

// Each retry is scheduled at the scheduled delay with ±20 % jitter (worker/retry-schedule.ts), counted
// from the end of the failed attempt; the worker then wakes on its timer, claims and sends. That
// dispatch takes a few ms on an idle machine; 150 ms covers it on the shared 2-core test machine.
const DISPATCH_MS = 150;
function expectGapsFollow(gaps: number[], schedule: number[]) {
  expect(gaps).toHaveLength(schedule.length);
  gaps.forEach((gap, index) => {
    const scheduled = schedule[index]!;
    expect(gap, `gap ${index + 1}: ${gap} ms for a scheduled ${scheduled} ms`).toBeGreaterThanOrEqual(0.8 * scheduled);
    expect(gap, `gap ${index + 1}: ${gap} ms for a scheduled ${scheduled} ms`).toBeLessThanOrEqual(
      1.2 * scheduled + DISPATCH_MS,
    );
  });
}

describe('the retry schedule', () => {
  it("follows the endpoint's own schedule, else its app's, and marks the delivery dead when it is used up", async () => {
    const appId = await newApp('schedules', ['order.paid']);
    const appDefault = await call('PATCH', `/v1/apps/${appId}`, {
      key: ctx.adminKey,
      body: { retrySchedule: ['0', '700ms', 700, '0.7s', '700ms'] },
    });
    expect(appDefault.status, appDefault.text).toBe(200);
    expect(appDefault.body).toMatchObject({ retrySchedule: '0,700ms,700ms,700ms,700ms', timeoutMs: null });

    const own = await receiver(answer(500, 'down'));
    const inheriting = await receiver(answer(503, 'down'));
    const ownId = await createEndpoint(appId, { url: own.url, retrySchedule: '0,1s,2s,1500ms' });
    const inheritingId = await createEndpoint(appId, { url: inheriting.url });
    const fetched = await call('GET', `/v1/apps/${appId}/endpoints/${inheritingId}`, { key: ctx.adminKey });
    expect(fetched.body).toMatchObject({
      retrySchedule: null,
      retryPolicy: { retrySchedule: '0,700ms,700ms,700ms,700ms', maxAttempts: 5, retryScheduleFrom: 'app' },
    });

    const messageId = await sendEvent(ctx.db.pool, appId, 'order.paid');
    const [ownRequests, inheritingRequests] = await Promise.all([
      own.waitForRequests(4, 15_000),
      inheriting.waitForRequests(5, 15_000),
    ]);
    expectGapsFollow(gapsOf(ownRequests), [1000, 2000, 1500]);
    expectGapsFollow(gapsOf(inheritingRequests), [700, 700, 700, 700]);

    // Used up: dead after exactly as many attempts as each schedule lists, not the worker's 3.
    const rows = await waitUntil(
      async () => {
        const { rows } = await ctx.db.pool.query<{ endpoint_id: string; state: string; attempt_count: number }>(
          'SELECT endpoint_id, state, attempt_count FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)',
          [messageId],
        );
        return rows.every((row) => row.state === 'dead') ? rows : null;
      },
      { timeoutMs: 5000, what: 'both deliveries dead' },
    );
    expect(new Map(rows.map((row) => [row.endpoint_id, row.attempt_count]))).toEqual(
      new Map([
        [ownId, 4],
        [inheritingId, 5],
      ]),
    );
    expect(own.requests).toHaveLength(4);
    expect(inheriting.requests).toHaveLength(5);
  });

  it('takes a changed schedule without a restart, within the endpoint cache of 2 s', async () => {
    const appId = await newApp('live change', ['change.one', 'change.two']);
    const failing = await receiver(answer(500, 'down'));
    const endpointId = await createEndpoint(appId, { url: failing.url, retrySchedule: '0' });

    const first = await sendEvent(ctx.db.pool, appId, 'change.one');
    const once = await waitForDelivery(ctx.db.pool, first, (row) => row.state === 'dead');
    expect(once.attempt_count).toBe(1);

    const changed = await call('PATCH', `/v1/apps/${appId}/endpoints/${endpointId}`, {
      key: ctx.adminKey,
      body: { retrySchedule: '0,300ms,300ms' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ retrySchedule: '0,300ms,300ms', retryPolicy: { maxAttempts: 3 } });
    // The worker that just used this endpoint holds it in its cache for up to 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2100));

    const second = await sendEvent(ctx.db.pool, appId, 'change.two');
    const thrice = await waitForDelivery(ctx.db.pool, second, (row) => row.state === 'dead');
    expect(thrice.attempt_count).toBe(3);
    expect(failing.requests).toHaveLength(4);
  });
});

describe('the attempt timeout', () => {
  // Answers after 1.2 s: within the worker's 2 s, beyond the 300 ms and 400 ms set below.
  const slow = () =>
    receiver(async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('late');
    });

  it("cuts an attempt at the endpoint's timeout, else at its app's, not at the worker's", async () => {
    const appId = await newApp('timeouts', ['slow.call']);
    const app = await call('PATCH', `/v1/apps/${appId}`, { key: ctx.adminKey, body: { timeoutMs: 400 } });
    expect(app.status, app.text).toBe(200);
    const plainAppId = await newApp('no timeouts', ['slow.call']);

    const [own, inheriting, plain] = await Promise.all([slow(), slow(), slow()]);
    const ownId = await createEndpoint(appId, { url: own.url, timeoutMs: 300, retrySchedule: '0' });
    const inheritingId = await createEndpoint(appId, { url: inheriting.url, retrySchedule: '0' });
    const plainId = await createEndpoint(plainAppId, { url: plain.url, retrySchedule: '0' });

    const messageId = await sendEvent(ctx.db.pool, appId, 'slow.call');
    const plainMessageId = await sendEvent(ctx.db.pool, plainAppId, 'slow.call');
    const finished = (row: { state: string }) => row.state === 'dead' || row.state === 'succeeded';
    await waitForDelivery(ctx.db.pool, plainMessageId, finished);
    const rows = await waitUntil(
      async () => {
        const { rows } = await ctx.db.pool.query<{ id: string; endpoint_id: string; state: string }>(
          `SELECT hookline.public_id('dlv', id) AS id, endpoint_id, state FROM hookline.deliveries
            WHERE message_id = hookline.uuid_of($1)`,
          [messageId],
        );
        return rows.length === 2 && rows.every(finished) ? rows : null;
      },
      { what: 'both deliveries of the app with timeouts to finish' },
    );
    const byEndpoint = new Map(rows.map((row) => [row.endpoint_id, row]));
    for (const [endpointId, deadlineMs] of [
      [ownId, 300],
      [inheritingId, 400],
    ] as const) {
      const delivery = byEndpoint.get(endpointId)!;
      expect(delivery.state).toBe('dead');
      const [attempt] = await attemptsOf(ctx.db.pool, delivery.id);
      expect(attempt).toMatchObject({ error_class: 'timeout' });
      expect(attempt!.duration_ms).toBeGreaterThanOrEqual(deadlineMs - 5);
      expect(attempt!.duration_ms).toBeLessThan(deadlineMs + 300);
    }
    // The control: the same receiver with neither set answers within the worker's 2 s.
    const { rows: plainRows } = await ctx.db.pool.query<{ state: string; last_status_code: number }>(
      'SELECT state, last_status_code FROM hookline.deliveries WHERE endpoint_id = $1',
      [plainId],
    );
    expect(plainRows).toEqual([{ state: 'succeeded', last_status_code: 200 }]);
  });
});
