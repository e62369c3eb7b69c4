// A delivery's page shows the request its attempts sent: the body rebuilt from the message must be
// the bytes the worker posted (the signatures cover them), and "copy as curl" must repeat the request
// exactly. A real worker delivers to a real receiver on loopback; curl itself runs the command.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand } from '../../lib/domain/deliveries/curl-command';
import { rebuildRequestBody } from '../../lib/domain/deliveries/rebuild-request-body';
import { buildBody } from '../../worker/deliver';
import { waitForDelivery } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { call, setUpApiTest, type ApiTestContext } from './support/api';

let ctx: ApiTestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await setUpApiTest();
  receiver = await startReceiver(answer(500, 'down for the test'));
  await startTestWorker(ctx.db.url, { retrySchedule: [0] });
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
});

describe('GET /apps/{appId}/deliveries/{deliveryId} request', () => {
  it('rebuilds the body the worker builds, for envelopes and implicit endpoints alike', () => {
    const createdAt = new Date('2026-11-23T10:00:00.123Z');
    for (const implicit of [false, true]) {
      const payloadText = '{"a": 1, "b": "it\'s", "c": [1, 2]}';
      expect(rebuildRequestBody({ eventType: 'x.y', createdAt, payloadText, implicit })).toBe(
        buildBody({ eventType: 'x.y', createdAt, payload: payloadText }, { implicit }),
      );
    }
  });

  it('answers the exact bytes that were signed and posted, and a curl command that repeats them', async () => {
    const appId = await createApp(ctx.db.pool, 'curl');
    await createEventType(ctx.db.pool, appId, 'order.paid');
    const { id: endpointId, secret } = await createEndpoint(ctx.db.pool, appId, `${receiver.url}/hooks`);
    await ctx.db.pool.query(`UPDATE hookline.endpoints SET headers = $2 WHERE id = $1`, [
      endpointId,
      JSON.stringify({ 'x-tenant': "o'brien" }),
    ]);
    // Spaces, unicode and a quote: jsonb prints them its own way, which JSON.stringify would not repeat.
    const sent = await call('POST', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      body: { eventType: 'order.paid', payload: { note: "it's 5 €", nested: { list: [1, 2.5, null] } } },
    });
    expect(sent.status, sent.text).toBe(202);
    const row = await waitForDelivery(ctx.db.pool, sent.body.id, (delivery) => delivery.state === 'dead');
    const detail = await call('GET', `/v1/apps/${appId}/deliveries/${row.id}`, { key: ctx.adminKey });
    expect(detail.status, detail.text).toBe(200);
    const posted = receiver.requests.find((request) => request.headers['webhook-id'] === sent.body.id)!;
    expect(detail.body.request).toEqual({ method: 'POST', url: `${receiver.url}/hooks`, body: posted.body });
    const attempt = detail.body.attempts.at(-1);
    // The recorded headers and the rebuilt body verify against the endpoint's secret.
    expect(() => new Webhook(secret).verify(detail.body.request.body, attempt.requestHeaders)).not.toThrow();

    // Run the command: the receiver gets the same body and the same signed headers again.
    const command = curlCommand({
      url: detail.body.request.url,
      headers: attempt.requestHeaders,
      body: detail.body.request.body,
    });
    const before = receiver.requests.length;
    await promisify(execFile)('bash', ['-c', command]);
    const repeated = receiver.requests[before]!;
    expect(repeated.body).toBe(posted.body);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-tenant', 'content-type']) {
      expect(repeated.headers[name], name).toBe(posted.headers[name]);
    }
    expect(repeated.headers['x-tenant']).toBe("o'brien");
  });

  it('shows a success kept on its delivery row as the final attempt, with the headers the worker sent', async () => {
    const ok = await startReceiver(answer(200, 'fine'));
    try {
      const appId = await createApp(ctx.db.pool, 'kept-on-delivery');
      await createEventType(ctx.db.pool, appId, 'order.paid');
      const { id: endpointId } = await createEndpoint(ctx.db.pool, appId, `${ok.url}/hooks`);
      await ctx.db.pool.query(`UPDATE hookline.endpoints SET headers = $2 WHERE id = $1`, [
        endpointId,
        JSON.stringify({ 'X-Tenant': 'atreides' }),
      ]);
      const sent = await call('POST', `/v1/apps/${appId}/messages`, {
        key: ctx.adminKey,
        body: { eventType: 'order.paid', payload: { n: 1 } },
      });
      const row = await waitForDelivery(ctx.db.pool, sent.body.id, (delivery) => delivery.state === 'succeeded');
      const stored = await ctx.db.pool.query(
        'SELECT count(*)::int AS n FROM hookline.attempts WHERE delivery_id = hookline.uuid_of($1)',
        [row.id],
      );
      expect(stored.rows[0].n).toBe(0);

      const detail = await call('GET', `/v1/apps/${appId}/deliveries/${row.id}`, { key: ctx.adminKey });
      expect(detail.status, detail.text).toBe(200);
      expect(detail.body.attempts).toHaveLength(1);
      const attempt = detail.body.attempts[0];
      expect(attempt).toMatchObject({
        id: null,
        attemptNumber: 1,
        statusCode: 200,
        errorClass: null,
        responseBody: null,
        keptOnDelivery: true,
      });
      expect(attempt.durationMs).toBeGreaterThan(0);
      expect(attempt.durationMs).toBe(detail.body.lastDurationMs);
      // Rebuilt, not stored: the same id, timestamp and signature the receiver got.
      const posted = ok.requests.find((request) => request.headers['webhook-id'] === sent.body.id)!;
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-tenant', 'content-type']) {
        expect(attempt.requestHeaders[name], name).toBe(posted.headers[name]);
      }
    } finally {
      await ok.close();
    }
  });

  it('shows a hookline.http_get request as a GET without a body, and its curl command repeats it', async () => {
    const { rows } = await ctx.db.pool.query<{ request_id: string }>(
      `SELECT hookline.http_get($1, headers := '{"X-Tenant": "fremen"}') AS request_id`,
      [`${receiver.url}/lookup`],
    );
    const { rows: messages } = await ctx.db.pool.query<{ id: string; app_id: string }>(
      `SELECT hookline.public_id('msg', id) AS id, app_id FROM hookline.messages WHERE request_id = $1`,
      [rows[0]!.request_id],
    );
    const { id: messageId, app_id: appId } = messages[0]!;
    const row = await waitForDelivery(ctx.db.pool, messageId, (delivery) => delivery.state === 'dead');
    const detail = await call('GET', `/v1/apps/${appId}/deliveries/${row.id}`, { key: ctx.adminKey });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.request).toEqual({ method: 'GET', url: `${receiver.url}/lookup`, body: '' });
    const endpoint = await call('GET', `/v1/apps/${appId}/endpoints/${row.endpoint_id}`, { key: ctx.adminKey });
    expect(endpoint.body).toMatchObject({ method: 'GET', implicit: true, url: `${receiver.url}/lookup` });
    const sent = receiver.requests.find((request) => request.headers['webhook-id'] === messageId)!;
    expect(sent.method).toBe('GET');
    const attempt = detail.body.attempts.at(-1);
    const command = curlCommand({
      method: detail.body.request.method,
      url: detail.body.request.url,
      headers: attempt.requestHeaders,
      body: detail.body.request.body,
    });
    const before = receiver.requests.length;
    await promisify(execFile)('bash', ['-c', command]);
    const repeated = receiver.requests[before]!;
    expect(repeated).toMatchObject({ method: 'GET', path: '/lookup', body: '' });
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-tenant']) {
      expect(repeated.headers[name], name).toBe(sent.headers[name]);
    }
    expect(
      rebuildRequestBody({
        eventType: 'http_get',
        createdAt: new Date(),
        payloadText: 'null',
        implicit: true,
        method: 'GET',
      }),
    ).toBe(
      buildBody({ eventType: 'http_get', createdAt: new Date(), payload: 'null' }, { implicit: true, method: 'GET' }),
    );
  });
});
