// Connection reuse and caps: pg_net opened a connection per request and ran out of ephemeral ports;
// the worker keeps one keep-alive pool per endpoint, capped at its max_concurrency, under a global cap.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver, type ReceiverHandler } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
});

afterEach(() => stopTestWorkers());
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

/** Answers 200 after `delayMs`, tracking how many requests it holds at once in `gauge`. */
function slowOk(delayMs: number, gauge: { now: number; max: number }): ReceiverHandler {
  return (_request, response) => {
    gauge.now++;
    gauge.max = Math.max(gauge.max, gauge.now);
    setTimeout(() => {
      gauge.now--;
      response.writeHead(200).end('ok');
    }, delayMs);
  };
}

describe('connections', () => {
  it('sends 200 deliveries to one endpoint over no more connections than its cap', async () => {
    const gauge = { now: 0, max: 0 };
    const receiver = await startReceiver(slowOk(10, gauge));
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'conn.capped');
    const endpoint = await createEndpoint(db.pool, appId, receiver.url, {
      eventTypes: ['conn.capped'],
      maxConcurrency: 3,
    });
    await db.pool.query(
      `SELECT hookline.send($1, 'conn.capped', jsonb_build_object('n', n)) FROM generate_series(1, 200) n`,
      [appId],
    );
    await startTestWorker(db.url, { concurrency: 64, batchSize: 64 });
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) === 200,
      { timeoutMs: 20_000, what: '200 deliveries' },
    );
    expect(receiver.requests).toHaveLength(200);
    expect(receiver.connections).toBeLessThanOrEqual(3);
    expect(gauge.max).toBeLessThanOrEqual(3);
    // Keep-alive: the requests came over those few connections, not one each.
    expect(new Set(receiver.requests.map((request) => request.remotePort)).size).toBeLessThanOrEqual(3);
  });

  it('never holds more requests in flight than the worker concurrency, across endpoints', async () => {
    const gauge = { now: 0, max: 0 };
    const ids: string[] = [];
    await createEventType(db.pool, appId, 'conn.global');
    for (let i = 0; i < 3; i++) {
      const receiver = await startReceiver(slowOk(30, gauge));
      receivers.push(receiver);
      ids.push(
        (await createEndpoint(db.pool, appId, receiver.url, { eventTypes: ['conn.global'], maxConcurrency: 10 })).id,
      );
    }
    await db.pool.query(
      `SELECT hookline.send($1, 'conn.global', jsonb_build_object('n', n)) FROM generate_series(1, 40) n`,
      [appId],
    );
    await startTestWorker(db.url, { concurrency: 4, batchSize: 4 });
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = ANY($1) AND state = 'succeeded'`, [ids])) === 120,
      { timeoutMs: 20_000, what: '120 deliveries' },
    );
    expect(gauge.max).toBeLessThanOrEqual(4);
    expect(gauge.max).toBeGreaterThanOrEqual(2);
  });
});
