// Lease keeping on a manual clock (worker/lease-keeper.ts, worker/leases.ts), against real PostgreSQL:
// a lease is renewed every third of it, before it runs out, for as long as the worker holds the
// delivery; and a delivery whose lease may end before the next renewal is not safe to send. The
// clock stands still between advance() calls, so seconds of leases pass without a second of waiting;
// a keeper that read Date.now() or Node's timers instead of its clock fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { LeaseKeeper } from '../../worker/lease-keeper';
import { LeaseBook } from '../../worker/leases';
import { WorkerMetrics } from '../../worker/metrics';
import { DeliverySource } from '../../worker/take-deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { sendEvent } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { ManualClock } from '../support/manual-clock';
import { testLogger } from '../support/worker';

let db: TestDatabase;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Arrakis');
  await createEventType(db.pool, appId, 'lease.kept');
  await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['lease.kept'] });
});

/** Seconds the delivery's lease still runs in the database, by the database's own clock. */
async function leaseLeft(id: string): Promise<{ owner: string | null; seconds: number }> {
  const { rows } = await db.pool.query<{ owner: string | null; seconds: number }>(
    `SELECT lease_owner AS owner, extract(epoch FROM lease_expires_at - now())::float8 AS seconds
       FROM hookline.deliveries WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

describe('lease keeping on a manual clock', () => {
  it('renews a lease every third of it before it runs out, and stops calling it safe once it may end before the next renewal', async () => {
    const clock = new ManualClock();
    const workerId = 'lease-keeper-test';
    const leases = new LeaseBook(3000);
    const options = { pool: db.pool, workerId, leaseSeconds: 3, leases, metrics: new WorkerMetrics() };
    const keeper = new LeaseKeeper({ ...options, log: testLogger(), clock });
    expect(keeper.renewEveryMs).toBe(1000);
    await sendEvent(db.pool, appId, 'lease.kept');
    const taken = await new DeliverySource(db.pool, workerId, 3, leases, clock).take(10);
    expect(taken.rows).toHaveLength(1);
    const id = taken.rows[0]!.id;
    expect(keeper.safeToSend(id)).toBe(true);

    const renewal = keeper.renewal();
    renewal.start();
    // As if most of the lease had passed in the database too: only a renewal saves it now.
    await db.pool.query(
      `UPDATE hookline.deliveries SET lease_expires_at = now() + interval '300 milliseconds' WHERE id = $1`,
      [id],
    );
    await clock.advance(999);
    await renewal.whenIdle();
    expect((await leaseLeft(id)).seconds).toBeLessThan(0.5);
    // A third of the lease after the start: renewed, here and in the database.
    await clock.advance(1);
    await renewal.whenIdle();
    expect(await leaseLeft(id)).toMatchObject({ owner: workerId, seconds: expect.closeTo(3, 0) });
    // Five more renewals: two leases' worth of time, and still held and safe to send.
    for (let i = 0; i < 5; i++) {
      await clock.advance(1000);
      await renewal.whenIdle();
      expect(keeper.safeToSend(id)).toBe(true);
    }
    expect(leases.holds(id)).toBe(true);
    expect(await leaseLeft(id)).toMatchObject({ owner: workerId, seconds: expect.closeTo(3, 0) });

    // No more renewals (a stalled renewal, a frozen connection). Renewed last at 6 s, the lease runs to
    // 9 s; sending needs it to outlast the next renewal, which is overdue, by 500 ms.
    await renewal.stop();
    await clock.advance(2500);
    expect(keeper.safeToSend(id)).toBe(true);
    await clock.advance(1);
    expect(keeper.safeToSend(id)).toBe(false);
  });
});
