// Standard Webhooks signing as a receiver checks it, with the `standardwebhooks` package: during a
// secret rotation's grace period both secrets sign; an expired secret stops signing; every retry
// carries the same webhook-id and body bytes; endpoint headers cannot replace the signature.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let receiver: Receiver;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  receiver = await startReceiver();
  await startTestWorker(db.url, { retrySchedule: [0, 100, 100] });
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
});

describe('signatures', () => {
  it('signs with the old and the new secret during a rotation, not with an expired one', async () => {
    await createEventType(db.pool, appId, 'sign.rotation');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/rotation`, {
      eventTypes: ['sign.rotation'],
    });
    const rotated = newSecret();
    const expired = newSecret();
    // As rotate-secret leaves it: the old secret valid for a grace period, the new one without end.
    await db.pool.query(
      `UPDATE hookline.endpoint_secrets SET expires_at = now() + interval '1 day' WHERE endpoint_id = $1`,
      [endpoint.id],
    );
    await db.pool.query(
      `INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret, created_at, expires_at)
       VALUES ($1, $2, $3, now() + interval '1 second', NULL), ($1, $2, $4, now() - interval '2 days', now() - interval '1 day')`,
      [appId, endpoint.id, rotated, expired],
    );
    const messageId = await sendEvent(db.pool, appId, 'sign.rotation', { rotating: true });
    await waitForDelivery(db.pool, messageId, (row) => row.state === 'succeeded');
    const request = receiver.requests.find((candidate) => candidate.path === '/rotation')!;

    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toMatchObject({
      data: { rotating: true },
    });
    expect(new Webhook(rotated).verify(request.body, request.headers)).toMatchObject({ data: { rotating: true } });
    expect(() => new Webhook(expired).verify(request.body, request.headers)).toThrow();
  });

  it('retries with the same webhook-id and body bytes, each signed afresh', async () => {
    await createEventType(db.pool, appId, 'sign.retry');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/retry`, { eventTypes: ['sign.retry'] });
    let calls = 0;
    receiver.respond((request, response) => {
      if (request.path === '/retry' && ++calls < 3) return void response.writeHead(503).end();
      response.writeHead(200).end();
    });
    const messageId = await sendEvent(db.pool, appId, 'sign.retry', { text: 'ünïcødé ✓', n: 1.5 });
    await waitForDelivery(db.pool, messageId, (row) => row.state === 'succeeded');
    receiver.respond(answer(200));
    const attempts = receiver.requests.filter((request) => request.path === '/retry');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((request) => request.headers['webhook-id']))).toEqual(new Set([messageId]));
    expect(new Set(attempts.map((request) => request.body)).size).toBe(1);
    for (const request of attempts)
      expect(() => new Webhook(endpoint.secret).verify(request.body, request.headers)).not.toThrow();
  });

  it('sends endpoint headers but never lets them replace the signature headers', async () => {
    await createEventType(db.pool, appId, 'sign.headers');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/headers`, { eventTypes: ['sign.headers'] });
    await db.pool.query(`UPDATE hookline.endpoints SET headers = $2 WHERE id = $1`, [
      endpoint.id,
      JSON.stringify({ 'X-Tenant': 'arrakis', 'Webhook-Signature': 'v1,forged', 'Content-Type': 'text/plain' }),
    ]);
    const messageId = await sendEvent(db.pool, appId, 'sign.headers', {});
    await waitForDelivery(db.pool, messageId, (row) => row.state === 'succeeded');
    const request = await waitUntil(() => receiver.requests.find((candidate) => candidate.path === '/headers'));
    expect(request.headers['x-tenant']).toBe('arrakis');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-signature']).not.toContain('forged');
    expect(() => new Webhook(endpoint.secret).verify(request.body, request.headers)).not.toThrow();
  });
});
