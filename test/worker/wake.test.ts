// How a worker learns about new deliveries: producers NOTIFY only while every worker is asleep on
// LISTEN; a worker that found work in the last second polls every 10 ms instead and marks itself in
// hookline.polling_workers, so producers skip the NOTIFY that would serialize their commits.
// The poll interval is set to 30 s here, so only a NOTIFY or the busy polling can deliver in time.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf, sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { advanceUntil, ManualClock } from '../support/manual-clock';
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

  it('an idle worker is woken by the NOTIFY; a busy one finds work at its next 10 ms poll, without one; idle again a second later', async () => {
    // The worker's time is a ManualClock's (test/support/manual-clock.ts): its 10 ms polls and its
    // one-second busy window pass only when the test moves it, so nothing here waits them out, and a
    // worker that timed them by Node's clock fails. Flushes go at once (one result), not on a timer;
    // no jobs or maintenance: the loop's waits are then the only one-shot timers on the clock, and
    // advanceUntil() waits for the loop to set its next one before moving on.
    const clock = new ManualClock();
    const quiet = { flushMaxResults: 1, maintenanceIntervalMs: 0, jobs: false as const };
    await startTestWorker(db.url, { pollIntervalMs: 30_000, ...quiet, clock });
    const marked = () => countRows(db.pool, 'polling_workers');
    const delivered = async (id: string) =>
      (await deliveriesOf(db.pool, 'message_id = $1', [id]))[0]?.state === 'succeeded';
    // It first sends the three events of the test above (busy, marked), then, a second of its clock
    // later, goes idle: asleep on LISTEN, unmarked.
    await receiver.waitForRequests(3);
    expect(await marked()).toBe(1);
    await advanceUntil(clock, async () => (await marked()) === 0, { maxMs: 1500, what: 'sleep on LISTEN' });

    let notified = await notificationsDuring(async () => {
      const id = await sendEvent(db.pool, appId, 'ping', { n: 1 });
      await waitForDelivery(db.pool, id, (row) => row.state === 'succeeded', 3000);
    });
    expect(notified).toBe(1);

    // Now busy: it marked itself, so the next event is sent without a NOTIFY, and found only by a poll,
    // which comes when its clock moves on.
    await waitUntil(async () => (await marked()) === 1, { what: 'the mark' });
    let id = '';
    notified = await notificationsDuring(async () => {
      id = await sendEvent(db.pool, appId, 'ping', { n: 2 });
    });
    expect(notified).toBe(0);
    expect(receiver.requests).toHaveLength(4);
    // The clock moves until the poll has sent it, and no further: the flush that records it goes at
    // once, on real time. Moving the clock until the row read 'succeeded' also counted the steps spent
    // waiting for that flush under load, and the second below began late (940 ms of it measured).
    await advanceUntil(clock, () => receiver.requests.length === 5, { maxMs: 200, what: 'delivery by polling' });
    await waitUntil(() => delivered(id), { what: 'the polled delivery recorded' });

    // A second of its clock without work: idle again, unmarked, and producers notify once more.
    await clock.advance(500);
    expect(await marked()).toBe(1);
    const idleAfter = 500 + (await advanceUntil(clock, async () => (await marked()) === 0, { maxMs: 1000 }));
    expect(idleAfter).toBeGreaterThanOrEqual(950);
    notified = await notificationsDuring(async () => {
      id = await sendEvent(db.pool, appId, 'ping', { n: 3 });
      await waitForDelivery(db.pool, id, (row) => row.state === 'succeeded', 3000);
    });
    expect(notified).toBe(1);

    // Stopping unmarks it, so producers wake the other workers again.
    await stopTestWorkers();
    expect(await marked()).toBe(0);
  });
});
