// How a worker learns about new deliveries: producers NOTIFY only while every worker is asleep on
// LISTEN; a worker that found work in the last second polls every 10 ms instead and marks itself in
// hookline.polling_workers, so producers skip the NOTIFY that would serialize their commits.
// The poll interval is set to 30 s here, so only a NOTIFY or the busy polling can deliver in time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let receiver: Receiver;
let listener: pg.Client;
let notifications = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  await createEventType(db.pool, appId, 'ping');
  receiver = await startReceiver();
  await createEndpoint(db.pool, appId, receiver.url);
  listener = new pg.Client({ connectionString: db.url });
  await listener.connect();
  listener.on('notification', () => notifications++);
  await listener.query('LISTEN hookline_deliveries');
});

afterAll(async () => {
  await stopTestWorkers();
  await listener.end();
  await receiver.close();
});

/** Notifications that arrive within 300 ms of `action`. */
async function notificationsDuring(action: () => Promise<unknown>): Promise<number> {
  const before = notifications;
  await action();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return notifications - before;
}

describe('waking workers', () => {
  it('a producer notifies while no worker polls, and stays silent while one does', async () => {
    expect(await notificationsDuring(() => sendEvent(db.pool, appId, 'ping'))).toBe(1);

    await db.pool.query(
      `INSERT INTO hookline.polling_workers (worker_id, until) VALUES ('busy-worker', now() + interval '1 minute')`,
    );
    expect(await notificationsDuring(() => sendEvent(db.pool, appId, 'ping'))).toBe(0);

    // A worker that died while polling stops suppressing notifications when its row expires.
    await db.pool.query(`UPDATE hookline.polling_workers SET until = now() - interval '1 second'`);
    expect(await notificationsDuring(() => sendEvent(db.pool, appId, 'ping'))).toBe(1);
    await db.pool.query('DELETE FROM hookline.polling_workers');
    await db.pool.query(`UPDATE hookline.deliveries SET state = 'cancelled', claimable_at = NULL`);
  });

  it('an idle worker is woken by the NOTIFY; a busy one finds work by polling, without one', async () => {
    await startTestWorker(db.url, { pollIntervalMs: 30_000 });
    // Let the worker go idle: it unmarks itself once a second has passed without work.
    await waitUntil(async () => (await countRows(db.pool, 'polling_workers')) === 0 || null, {
      what: 'the worker to sleep on LISTEN',
    });
    await new Promise((resolve) => setTimeout(resolve, 1200));

    const first = Date.now();
    let notified = await notificationsDuring(async () => {
      const id = await sendEvent(db.pool, appId, 'ping', { n: 1 });
      await waitForDelivery(db.pool, id, (row) => row.state === 'succeeded', 3000);
    });
    expect(notified).toBe(1);
    expect(Date.now() - first).toBeLessThan(3000);

    // Now busy: it marked itself, so the next event is sent without a NOTIFY and still arrives at once.
    expect(await countRows(db.pool, 'polling_workers')).toBe(1);
    const second = Date.now();
    notified = await notificationsDuring(async () => {
      const id = await sendEvent(db.pool, appId, 'ping', { n: 2 });
      await waitForDelivery(db.pool, id, (row) => row.state === 'succeeded', 3000);
    });
    expect(notified).toBe(0);
    expect(Date.now() - second).toBeLessThan(1500);

    // Stopping unmarks it, so producers wake the other workers again.
    await stopTestWorkers();
    expect(await countRows(db.pool, 'polling_workers')).toBe(0);
  });
});
