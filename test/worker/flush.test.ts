// The flusher's back-off on a manual clock (worker/flush.ts, worker/database-backoff.ts), against real
// PostgreSQL behind a TCP proxy the test takes down and brings back: a failed flush is tried again
// after 100 ms, then 200 ms, never sooner, however many results arrive meanwhile; once the database
// answers, the results are written. Tries are counted as connections the proxy accepted. The clock
// stands still between advance() calls: a flusher timed by Node's timers never tries again here.
// And the fence: a result written again after a write whose answer was lost ends nothing it was not
// sent under.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicDeliveryId } from '../../lib/database/ids';
import { createPool, type Pool } from '../../lib/database/pg';
import type { Logger } from '../../lib/runtime/log';
import type { AttemptResult } from '../../worker/deliver';
import { ResultFlusher, type FlushOutcome } from '../../worker/flush';
import { LeaseBook } from '../../worker/leases';
import { WorkerMetrics } from '../../worker/metrics';
import { DeliverySource } from '../../worker/take-deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { deliveriesOf, sendEvent } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { ManualClock } from '../support/manual-clock';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { testLogger, testWorkerOptions } from '../support/worker';

let db: TestDatabase;
let proxy: TcpProxy;
let throughProxy: Pool;
let appId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startTcpProxy(Number(new URL(db.url).port));
  throughProxy = createPool(proxy.url(db.url), { max: 1 });
  appId = await createApp(db.pool, 'Caladan');
  await createEventType(db.pool, appId, 'flush.backoff');
  await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['flush.backoff'] });
});

afterAll(async () => {
  await throughProxy.end();
  await proxy.close();
});

function succeeded(deliveryId: string, endpointId: string): AttemptResult {
  return {
    deliveryId,
    endpointId,
    attemptCount: 0,
    state: 'succeeded',
    nextAttemptAt: null,
    startedAt: new Date(),
    durationMs: 3,
    statusCode: 200,
    errorClass: null,
    errorMessage: null,
    requestHeaders: {},
    responseHeaders: null,
    responseBody: null,
    responseTruncated: false,
  };
}

/** A first attempt that got a 500, its retry due at once. */
function failedDueNow(deliveryId: string, endpointId: string): AttemptResult {
  return {
    ...succeeded(deliveryId, endpointId),
    state: 'pending',
    nextAttemptAt: new Date(Date.now() - 1000),
    statusCode: 500,
    errorClass: 'http_5xx',
    errorMessage: 'HTTP 500',
  };
}

describe('the flusher against a database that is down', () => {
  it('tries again after 100 ms, then 200 ms, not sooner for results arriving meanwhile, and writes them once it answers', async () => {
    const clock = new ManualClock();
    const workerId = 'flush-test';
    const leases = new LeaseBook(30_000);
    for (let i = 0; i < 2; i++) await sendEvent(db.pool, appId, 'flush.backoff');
    const { rows } = await new DeliverySource(db.pool, workerId, 30, leases, clock).take(10);
    expect(rows).toHaveLength(2);
    const outcomes: FlushOutcome[] = [];
    const { circuit, autoDisableAfterMs } = testWorkerOptions(db.url);
    const flusher = new ResultFlusher({
      unwrittenColumns: (ids) => leases.unwrittenColumns(ids),
      pool: throughProxy,
      workerId,
      intervalMs: 5,
      maxResults: 100,
      circuit,
      autoDisableAfterMs,
      keepSuccessfulAttempts: false,
      rollupShard: 0,
      log: testLogger(),
      metrics: new WorkerMetrics(),
      onFlushed: (_results, outcome) => outcomes.push(outcome),
      clock,
    });
    const tries = () => proxy.accepted();

    proxy.goDown();
    const before = tries();
    flusher.add(succeeded(rows[0]!.id, rows[0]!.endpoint_id));
    await clock.advance(4);
    expect(tries()).toBe(before);
    // The flush interval (5 ms) ends: the first try, which fails.
    await clock.advance(1);
    await flusher.whenIdle();
    expect(tries()).toBe(before + 1);
    // A result arriving during the back-off does not hurry it.
    flusher.add(succeeded(rows[1]!.id, rows[1]!.endpoint_id));
    await clock.advance(99);
    expect(tries()).toBe(before + 1);
    await clock.advance(1);
    await flusher.whenIdle();
    expect(tries()).toBe(before + 2);
    // Doubled: 200 ms.
    await clock.advance(199);
    expect(tries()).toBe(before + 2);
    expect(outcomes).toHaveLength(0);

    proxy.reconnect();
    await clock.advance(1);
    await flusher.whenIdle();
    expect(tries()).toBe(before + 3);
    expect(outcomes).toMatchObject([{ recorded: 2, succeeded: 2 }]);
    expect(flusher.unrecorded).toBe(0);
    const written = await deliveriesOf(db.pool, 'id = ANY ($1)', [rows.map((row) => publicDeliveryId(row.id))]);
    expect(written.map((row) => row.state)).toEqual(['succeeded', 'succeeded']);
    // Nothing left to try: no timer waits on the clock.
    expect(clock.pending).toBe(0);
  });

  it('on shutdown, tries at most a second apart until its deadline on the clock, then gives up and says how many it kept', async () => {
    const clock = new ManualClock();
    const workerId = 'flush-drain-test';
    const leases = new LeaseBook(30_000);
    await sendEvent(db.pool, appId, 'flush.backoff');
    const { rows } = await new DeliverySource(db.pool, workerId, 30, leases, clock).take(10);
    const { circuit, autoDisableAfterMs } = testWorkerOptions(db.url);
    // Tries counted by their failures, as logged (the pool's idle connection, cut by goDown(), may
    // still be there for the first try: no new connection to count).
    const start = clock.now();
    const triedAt: number[] = [];
    const log: Logger = {
      ...testLogger(),
      error: (message: string) => void (message.startsWith('flush failed') && triedAt.push(clock.now() - start)),
      child: () => log,
    };
    const flusher = new ResultFlusher({
      unwrittenColumns: (ids) => leases.unwrittenColumns(ids),
      ...{ pool: throughProxy, workerId, intervalMs: 5, maxResults: 100, circuit, autoDisableAfterMs },
      ...{ keepSuccessfulAttempts: false, rollupShard: 0, log, metrics: new WorkerMetrics(), clock },
    });
    proxy.goDown();
    flusher.add(succeeded(rows[0]!.id, rows[0]!.endpoint_id));
    let unwritten: number | null = null;
    void flusher.drain(2500).then((left) => (unwritten = left));
    while (unwritten === null && clock.now() - start <= 3000) {
      await flusher.whenIdle();
      await clock.advance(50);
    }
    // Tries at 0, then 100, 200, 400 and 800 ms apart; the next pause (1 s, the drain's cap) ends at
    // the deadline, and no try goes out after it.
    expect(triedAt).toEqual([0, 100, 300, 700, 1500]);
    expect(unwritten).toBe(1);
    expect(clock.now() - start).toBe(2500);
    proxy.reconnect();
  });
});

describe('a result written again after its first write committed unseen', () => {
  it('refuses it once the delivery is taken again for its retry, and keeps the new holding in the book', async () => {
    const workerId = 'flush-fence-test';
    const leases = new LeaseBook(30_000);
    const clock = new ManualClock();
    await sendEvent(db.pool, appId, 'flush.backoff');
    const source = new DeliverySource(db.pool, workerId, 30, leases, clock);
    const [taken] = (await source.take(10)).rows;
    expect(taken!.attempt_count).toBe(0);
    const { circuit, autoDisableAfterMs } = testWorkerOptions(db.url);
    const outcomes: FlushOutcome[] = [];
    const flusher = new ResultFlusher({
      unwrittenColumns: (ids) => leases.unwrittenColumns(ids),
      ...{ pool: db.pool, workerId, intervalMs: 5, maxResults: 100, circuit, autoDisableAfterMs },
      ...{ keepSuccessfulAttempts: false, rollupShard: 0, log: testLogger(), metrics: new WorkerMetrics(), clock },
      // As the worker does (delivery-worker.ts): a written result ends the holding it was sent under.
      onFlushed: (_results, outcome, holding) => {
        outcomes.push(outcome);
        leases.drop(holding);
      },
    });
    const failed = failedDueNow(taken!.id, taken!.endpoint_id);
    const firstTaking = leases.takingOf(taken!.id);
    flusher.add(failed, firstTaking);
    await clock.advance(5);
    await flusher.whenIdle();
    expect(outcomes.at(-1)).toMatchObject({ recorded: 1 });

    // That write committed, but suppose its answer was lost (a client-side query timeout, a dropped
    // connection): the flusher keeps the result and writes it again later. Meanwhile this worker's
    // claim takes the delivery again for its retry.
    const [again] = (await source.take(10)).rows;
    expect(again).toMatchObject({ id: taken!.id, attempt_count: 1 });
    flusher.add(failed, firstTaking);
    await clock.advance(5);
    await flusher.whenIdle();

    expect(outcomes.at(-1)).toMatchObject({ recorded: 0, unrecorded: [taken!.id] });
    const [row] = await deliveriesOf(db.pool, 'id = $1', [publicDeliveryId(taken!.id)]);
    expect(row).toMatchObject({ state: 'delivering', lease_owner: workerId, attempt_count: 1 });
    // The retry's holding is still this worker's to renew: nobody else may take it mid-send.
    expect(leases.holds(taken!.id)).toBe(true);
    await flusher.drain(1000);
  });

  it('keeps this worker from claiming again a delivery whose result waits, even once its lease ran out', async () => {
    const workerId = 'flush-still-ours-test';
    const leases = new LeaseBook(30_000);
    const clock = new ManualClock();
    const { circuit, autoDisableAfterMs } = testWorkerOptions(db.url);
    const flusher = new ResultFlusher({
      unwrittenColumns: (ids) => leases.unwrittenColumns(ids),
      ...{ pool: db.pool, workerId, intervalMs: 5, maxResults: 100, circuit, autoDisableAfterMs },
      ...{ keepSuccessfulAttempts: false, rollupShard: 0, log: testLogger(), metrics: new WorkerMetrics(), clock },
    });
    // As the worker wires it (delivery-worker.ts): what it sends and what its flusher holds are its own.
    const source = new DeliverySource(db.pool, workerId, 30, leases, clock, () => flusher.unrecordedIds());
    await sendEvent(db.pool, appId, 'flush.backoff');
    const [taken] = (await source.take(10)).rows;
    // The attempt failed; its result waits for the flush (PostgreSQL was down, say) past the lease.
    flusher.add(failedDueNow(taken!.id, taken!.endpoint_id));
    await db.pool.query(
      `UPDATE hookline.deliveries SET lease_expires_at = now() - interval '1 second',
                                      claimable_at = now() - interval '1 second' WHERE id = $1`,
      [taken!.id],
    );
    // This worker's next claim leaves it alone: taken again by the same owner at the same attempt
    // count, the old result's write would end the new attempt's lease mid-send.
    expect((await source.take(10)).rows.map((row) => row.id)).not.toContain(taken!.id);

    // Once the result is written, its retry is this worker's to claim like any other.
    await clock.advance(5);
    await flusher.whenIdle();
    const [again] = (await source.take(10)).rows;
    expect(again).toMatchObject({ id: taken!.id, attempt_count: 1 });
  });
});
