// Lease keeping on a manual clock (worker/lease-keeper.ts, worker/leases.ts), against real PostgreSQL:
// a lease is renewed every third of it, before it runs out, for as long as the worker holds the
// delivery; and a delivery whose lease may end before the next renewal is not safe to send. The
// clock stands still between advance() calls, so seconds of leases pass without a second of waiting;
// a keeper that read Date.now() or Node's timers instead of its clock fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../lib/database/pg';
import { LeaseKeeper } from '../../worker/lease-keeper';
import { LeaseBook } from '../../worker/leases';
import { WorkerMetrics } from '../../worker/metrics';
import { statements } from '../../worker/statements';
import { DeliverySource } from '../../worker/take-deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { sendEvent } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { ManualClock } from '../support/manual-clock';
import { waitUntil } from '../support/receiver';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { testLogger } from '../support/worker';

let db: TestDatabase;
let appId: string;
let proxy: TcpProxy;
let throughProxy: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startTcpProxy(Number(new URL(db.url).port));
  throughProxy = createPool(proxy.url(db.url), { max: 1 });
  appId = await createApp(db.pool, 'Arrakis');
  await createEventType(db.pool, appId, 'lease.kept');
  await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['lease.kept'] });
});

afterAll(async () => {
  await throughProxy.end();
  await proxy.close();
});

/** Seconds the delivery's lease still runs in the database, by the database's own clock. */
async function leaseLeft(id: string): Promise<{ owner: string | null; seconds: number }> {
  const { rows } = await db.pool.query<{ owner: string | null; seconds: number }>(
    // The view: a first attempt has no row until its outcome is written, and runs under its fan-out
    // batch's lease (migration 20261206090000_first_attempts_written_once).
    `SELECT lease_owner AS owner, extract(epoch FROM lease_expires_at - now())::float8 AS seconds
       FROM hookline.unfinished_deliveries WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

/** A keeper of 3 s leases for `workerId`'s book, on `pool`. */
function keeperOn(pool: Pool, workerId: string, leases: LeaseBook, clock?: ManualClock): LeaseKeeper {
  return new LeaseKeeper({
    pool,
    workerId,
    leaseSeconds: 3,
    leases,
    metrics: new WorkerMetrics(),
    log: testLogger(),
    clock,
  });
}

/** A keeper of 3 s leases on a manual clock whose database connections go through the TCP proxy. */
function keeperThroughProxy(workerId: string) {
  const clock = new ManualClock();
  const leases = new LeaseBook(3000);
  return { clock, workerId, leases, keeper: keeperOn(throughProxy, workerId, leases, clock) };
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
    // As if most of the lease had passed in the database too: only a renewal saves it now. A first
    // attempt's lease is its fan-out batch's row.
    await db.pool.query(`UPDATE hookline.fanout_batches SET lease_expires_at = now() + interval '300 milliseconds'`);
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

  it('tries a failed renewal again after 100 ms, then 200 ms, so an outage shorter than a renewal period costs no lease', async () => {
    // Left to the next tick, three failed renewals in a row let a live worker's lease run out under a
    // storm of PostgreSQL restarts, and another worker sent its deliveries again.
    const { clock, workerId, leases, keeper } = keeperThroughProxy('lease-keeper-retry-test');
    await sendEvent(db.pool, appId, 'lease.kept');
    const taken = await new DeliverySource(db.pool, workerId, 3, leases, clock).take(10);
    const id = taken.rows[0]!.id;
    const renewal = keeper.renewal();
    renewal.start();
    const tries = () => proxy.accepted();
    const triedOnce = async (since: number) => {
      for (let waited = 0; tries() === since && waited < 2000; waited += 10)
        await new Promise((r) => setTimeout(r, 10));
      // The failed try has ended and its back-off timer is set.
      for (let waited = 0; clock.pending < 2 && waited < 2000; waited += 10)
        await new Promise((r) => setTimeout(r, 10));
    };

    proxy.goDown();
    let before = tries();
    // The tick at a third of the lease: its renewal fails...
    await clock.advance(1000);
    await triedOnce(before);
    expect(tries()).toBe(before + 1);
    // ...and is tried again 100 ms later, not at the next tick...
    before = tries();
    await clock.advance(99);
    expect(tries()).toBe(before);
    await clock.advance(1);
    await triedOnce(before);
    expect(tries()).toBe(before + 1);
    // ...then 200 ms later, when the database is back: renewed, a full lease from now.
    await db.pool.query(
      `UPDATE hookline.deliveries SET lease_expires_at = now() + interval '500 milliseconds' WHERE id = $1`,
      [id],
    );
    proxy.reconnect();
    await clock.advance(200);
    await renewal.whenIdle();
    expect(await leaseLeft(id)).toMatchObject({ owner: workerId, seconds: expect.closeTo(3, 0) });
    expect(keeper.safeToSend(id)).toBe(true);
    await renewal.stop();
  });

  it('leaves the fan-out batch of a delivery whose release failed to expire, so that delivery comes back', async () => {
    // The release failed while PostgreSQL restarted; counted as finished, the batch row went with the
    // next release or flush, and 65 first attempts stayed 'delivering' with no lease that could expire.
    const { clock, workerId, leases, keeper } = keeperThroughProxy('lease-keeper-abandon-test');
    await sendEvent(db.pool, appId, 'lease.kept');
    await sendEvent(db.pool, appId, 'lease.kept');
    const taken = await new DeliverySource(db.pool, workerId, 3, leases, clock).take(10);
    const [unreleased, released] = taken.rows.map((row) => row.id);
    const [batchId] = leases.batches();
    expect({ deliveries: taken.rows.length, batches: leases.batches().length }).toEqual({ deliveries: 2, batches: 1 });
    const batchRows = async () =>
      (await db.pool.query(`SELECT id FROM hookline.fanout_batches WHERE id = $1`, [batchId])).rowCount;

    proxy.goDown();
    await keeper.release([{ id: unreleased!, dueAt: new Date() }]);
    expect(leases.holds(unreleased!)).toBe(false);
    proxy.reconnect();
    // The batch's other first attempt is given back for real: the batch is not finished, its row stays.
    await keeper.release([{ id: released!, dueAt: new Date() }]);
    expect({ finished: leases.finishedBatches(), renewed: leases.batches(), rows: await batchRows() }).toEqual({
      finished: [],
      renewed: [],
      rows: 1,
    });
    expect(await leaseLeft(unreleased!)).toMatchObject({ owner: workerId });

    // Its lease runs out (no longer renewed), and any worker gives the unreleased delivery back.
    await db.pool.query(
      `UPDATE hookline.fanout_batches SET lease_expires_at = now() - interval '1 millisecond' WHERE id = $1`,
      [batchId],
    );
    expect(await keeper.releaseExpiredBatchLeases()).toBe(1);
    const { rows } = await db.pool.query(
      `SELECT state, lease_owner, claimable_at <= now() AS claimable FROM hookline.deliveries WHERE id = $1`,
      [unreleased],
    );
    expect(rows[0]).toEqual({ state: 'pending', lease_owner: null, claimable: true });
    expect(await batchRows()).toBe(0);
  });

  it('leaves a delivery released and taken again alone when a renewal sent before the release answers after the claim', async () => {
    // Keyed by id alone, the renewal's answer (sent before the release, run after it) took the new
    // holding for lost: the delivery was sent out of the book, and the stray release after a failed
    // claim gave it back mid-send, for another worker to send again.
    const { clock, workerId, leases, keeper } = keeperThroughProxy('lease-keeper-taken-anew-test');
    // The claim and the release run on connections of their own, beside the renewal, as a worker's do.
    const source = new DeliverySource(db.pool, workerId, 3, leases, clock);
    const releaser = keeperOn(db.pool, workerId, leases, clock);
    await sendEvent(db.pool, appId, 'lease.kept');
    const [id] = (await source.take(10)).rows.map((row) => row.id);
    const [batchId] = leases.batches();

    // The renewal goes out and waits on its fan-out batch's row, locked here...
    const blocker = await db.pool.connect();
    let renewalBackend: number | undefined;
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM hookline.fanout_batches WHERE id = $1 FOR UPDATE', [batchId]);
      const renewal = keeper.renew();
      await waitUntil(
        async () => {
          const { rows } = await db.pool.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          renewalBackend = rows[0]?.pid;
          return renewalBackend !== undefined;
        },
        { timeoutMs: 5000, what: 'the renewal waiting on the batch row' },
      );
      // ...while the delivery is given back, due now...
      await releaser.release([{ id: id!, dueAt: new Date() }]);
      expect(leases.holds(id!)).toBe(false);
      // ...then runs (finding it no longer leased), its answer slow on the way back...
      proxy.holdReplies();
      await blocker.query('COMMIT');
      await waitUntil(
        async () =>
          (await db.pool.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'idle'`, [renewalBackend]))
            .rowCount === 1,
        { timeoutMs: 5000, what: 'the renewal to have run' },
      );
      // ...and the worker's next claim takes the delivery again before the answer is read.
      expect((await source.take(10)).rows.map((row) => row.id)).toEqual([id]);
      proxy.passReplies();
      await renewal;
    } finally {
      proxy.passReplies();
      // Ends the lock's transaction if the test failed before its COMMIT (a warning otherwise).
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect(leases.holds(id!)).toBe(true);
    // A failed claim's stray release must leave it to this worker, which is sending it.
    await keeper.releaseStrays();
    expect(await leaseLeft(id!)).toMatchObject({ owner: workerId, seconds: expect.closeTo(3, 0) });
  });

  it('keeps a delivery taken again before the answer to its release was read', async () => {
    const { clock, workerId, leases, keeper } = keeperThroughProxy('lease-keeper-release-answer-test');
    const source = new DeliverySource(db.pool, workerId, 3, leases, clock);
    await sendEvent(db.pool, appId, 'lease.kept');
    const [id] = (await source.take(10)).rows.map((row) => row.id);
    proxy.holdReplies();
    let release: Promise<void> | undefined;
    try {
      release = keeper.release([{ id: id!, dueAt: new Date() }]);
      await waitUntil(async () => (await leaseLeft(id!)).owner === null, {
        timeoutMs: 5000,
        what: 'the release to have run',
      });
      expect((await source.take(10)).rows.map((row) => row.id)).toEqual([id]);
    } finally {
      proxy.passReplies();
      await release;
    }
    // The release's answer ends the holding it was sent for, not the new one.
    expect(leases.holds(id!)).toBe(true);
  });

  it('gives back, when its stray release runs late, only what was leased before it began', async () => {
    // The stray release is sent with the worker's holdings of that moment. One its client gave up on
    // (5 s) may still run on the server after the worker's next claim and fan-out: what they leased is
    // being sent, and is not a stray.
    const workerId = 'lease-keeper-late-stray-test';
    /** A first attempt under a fan-out batch, and a claimed delivery, both leased into `leases`. */
    const leaseBoth = async (leases: LeaseBook) => {
      const source = new DeliverySource(db.pool, workerId, 3, leases);
      await sendEvent(db.pool, appId, 'lease.kept');
      await sendEvent(db.pool, appId, 'lease.kept');
      const [firstAttempt, toClaim] = (await source.take(10)).rows.map((row) => row.id);
      await keeperOn(db.pool, workerId, leases).release([{ id: toClaim!, dueAt: new Date() }]);
      expect((await source.take(10)).rows.map((row) => row.id)).toEqual([toClaim]);
      return { firstAttempt: firstAttempt!, claimed: toClaim! };
    };
    // Strays: leased by a claim and a fan-out whose answers were lost (a book the worker never saw).
    const strays = await leaseBoth(new LeaseBook(3000));
    const late = await db.pool.connect();
    try {
      // The late statement's now() is its start: before the claim and fan-out below.
      await late.query('BEGIN');
      await late.query('SELECT now()');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sending = await leaseBoth(new LeaseBook(3000));
      const { rowCount } = await statements.releaseStrayLeases.run(late, {
        workerId,
        heldDeliveryIds: [],
        heldBatchIds: [],
        leaseSeconds: 3,
      });
      await late.query('COMMIT');
      expect(rowCount).toBe(1);
      expect(await leaseLeft(strays.claimed)).toMatchObject({ owner: null });
      expect(await leaseLeft(sending.claimed)).toMatchObject({ owner: workerId });
      // The strays' batch lease is ended, for the next expired-batch release; the one being sent is not.
      const { rows } = await db.pool.query<{ expired: boolean }>(
        `SELECT lease_expires_at < now() AS expired FROM hookline.fanout_batches WHERE lease_owner = $1 ORDER BY id`,
        [workerId],
      );
      expect(rows.map((row) => row.expired)).toEqual([true, false]);
      expect(await leaseLeft(sending.firstAttempt)).toMatchObject({ owner: workerId });
    } finally {
      await late.query('ROLLBACK');
      late.release();
    }
  });
});
