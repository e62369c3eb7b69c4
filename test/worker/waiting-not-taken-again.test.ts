// A delivery waiting for a connection to its endpoint is this worker's, like one in flight: its next
// claim must not take it again even if the database says its lease is over (PostgreSQL unreachable for
// longer than a lease, then another worker's chore gave its first attempt back as due:
// worker/sql/release-expired-batch-leases.sql). Taken again, the worker held it twice, and each copy
// was sent, back to back (worker/sql/claim-deliveries.sql). The state a lease that ran out leaves in
// the database is written here directly, and only there: the worker's own lease book still believes
// the lease runs, so its waiting copy is sent once the connection frees either way. What this checks
// is the real worker's claim, with one delivery in flight and one waiting.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { sendEvent } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
let receiver: Receiver | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
});
afterEach(() => stopTestWorkers());
afterAll(async () => {
  await receiver?.close();
});

describe('a delivery waiting for a connection', () => {
  it('is not claimed again by its own worker while it waits, even once its lease ran out', async () => {
    // The receiver holds its first request until the test lets it go: one connection (max_concurrency
    // 1), busy, and the next delivery waits for it.
    let letGo: () => void = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let first = true;
    receiver = await startReceiver(async (_request, response) => {
      if (first) {
        first = false;
        await held;
      }
      response.writeHead(200).end('ok');
    });
    await createEventType(db.pool, appId, 'waiting.order');
    await createEndpoint(db.pool, appId, receiver.url, {
      eventTypes: ['waiting.order'],
      maxConcurrency: 1,
    });
    // A long lease: no renewal runs during the test to put back what it changes below.
    const worker = await startTestWorker(db.url, { leaseSeconds: 60 });

    await sendEvent(db.pool, appId, 'waiting.order', { n: 1 });
    await receiver.waitForRequests(1);
    const waitingMessage = await sendEvent(db.pool, appId, 'waiting.order', { n: 2 });
    // Who holds a message's delivery: a first attempt has no row until its outcome is written (migration
    // 20261206090000_first_attempts_written_once), so the view, which shows its fan-out batch's lease.
    const leaseOf = async (messageId: string) =>
      (
        await db.pool.query<{ lease_owner: string | null }>(
          'SELECT lease_owner FROM hookline.unfinished_deliveries WHERE message_id = hookline.uuid_of($1)',
          [messageId],
        )
      ).rows[0]?.lease_owner;
    const leasedToWorker = async () => (await leaseOf(waitingMessage)) === worker.workerId;
    await waitUntil(leasedToWorker, { timeoutMs: 5000 });

    // Its lease ran out while the worker could not reach PostgreSQL, and it was given back, due now: its
    // row written 'pending' under the id it was sent with, as release-expired-batch-leases.sql does.
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at,
                                        claimable_at, created_at, updated_at)
       SELECT hookline.delivery_id(m.id, e.id), m.app_id, m.id, e.id, m.event_type, 'pending', now(), now(),
              m.created_at, now()
         FROM hookline.messages AS m JOIN hookline.endpoints AS e ON e.app_id = m.app_id
        WHERE m.id = hookline.uuid_of($1)`,
      [waitingMessage],
    );
    await db.pool.query(`DELETE FROM hookline.fanout_batches`);
    expect(await leaseOf(waitingMessage)).toBeNull();
    const claimedBefore = worker.stats.claimed;
    // A new event wakes the worker, whose take first claims what is due, then fans the event out.
    const wakeUp = await sendEvent(db.pool, appId, 'waiting.order', { n: 3 });
    await waitUntil(async () => (await leaseOf(wakeUp)) != null, { timeoutMs: 5000 });

    // Without the waiting ids among those the claim leaves alone, it was leased to the worker again
    // here, and counted twice in what the worker took (the wake-up's delivery and it).
    expect(await leasedToWorker()).toBe(false);
    expect(worker.stats.claimed - claimedBefore).toBe(1);
    letGo();
    await receiver.waitForRequests(3);
  });
});
