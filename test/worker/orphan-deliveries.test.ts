// Deliveries whose endpoint was deleted while their message was being fanned out (the delete committed
// after the fan-out read the endpoint and before its deliveries were written, so the delete's own
// cleanup never saw them): the dispatcher deletes them unsent (worker/dispatcher.ts,
// worker/sql/delete-orphan-deliveries.sql). When that delete fails, they are abandoned, not dropped:
// their fan-out batch is left to expire, gives them back, and the next claim takes them and deletes
// them. Dropped as finished, the batch row went with the next flush and they stayed 'delivering' for
// ever; and a claim that joined the endpoint as a set left such a delivery due and unclaimed, first in
// the claim index for ever.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../lib/database/pg';
import { CircuitGate } from '../../worker/circuit-breaker';
import { realClock } from '../../worker/clock';
import { Dispatcher } from '../../worker/dispatcher';
import { EndpointCache } from '../../worker/endpoint-cache';
import { ResultFlusher } from '../../worker/flush';
import { HttpPools } from '../../worker/http-pools';
import { LeaseKeeper } from '../../worker/lease-keeper';
import { LeaseBook } from '../../worker/leases';
import { WorkerMetrics } from '../../worker/metrics';
import { DeliverySource } from '../../worker/take-deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { sendEvent } from '../support/deliveries';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, type Receiver } from '../support/receiver';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { testLogger, testWorkerOptions } from '../support/worker';

let db: TestDatabase;
let proxy: TcpProxy;
let throughProxy: Pool;
let receiver: Receiver;
let appId: string;
const httpPools: HttpPools[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startTcpProxy(Number(new URL(db.url).port));
  throughProxy = createPool(proxy.url(db.url), { max: 1, connectionTimeoutMillis: 1000 });
  receiver = await startReceiver();
  appId = await createApp(db.pool, 'Caladan');
  await createEventType(db.pool, appId, 'endpoint.raced');
});

afterEach(() => proxy.reconnect());

afterAll(async () => {
  await Promise.all(httpPools.map((pools) => pools.close()));
  await throughProxy.end();
  await proxy.close();
  await receiver.close();
});

/**
 * A worker's dispatch stage from its real parts. `pool` runs its own statements (the orphans' delete,
 * releases); the endpoint cache reads on a direct connection, so a test can cut the first alone.
 */
function dispatchStage(workerId: string, pool: Pool) {
  const options = testWorkerOptions(db.url);
  const log = testLogger();
  const metrics = new WorkerMetrics();
  const leases = new LeaseBook(options.leaseSeconds * 1000);
  const { leaseSeconds } = options;
  const leaseKeeper = new LeaseKeeper({ pool, workerId, leaseSeconds, leases, metrics, log });
  const flusher = new ResultFlusher({
    pool: db.pool,
    workerId,
    intervalMs: options.flushIntervalMs,
    maxResults: options.flushMaxResults,
    circuit: options.circuit,
    autoDisableAfterMs: options.autoDisableAfterMs,
    keepSuccessfulAttempts: false,
    log,
    metrics,
  });
  const http = new HttpPools(options.http, options.addressPolicy);
  httpPools.push(http);
  const dispatcher = new Dispatcher({
    pool,
    workerId,
    leaseSeconds,
    retrySchedule: options.retrySchedule,
    userAgent: 'Hookline test',
    endpoints: new EndpointCache(db.pool),
    gate: new CircuitGate(pool, options.http.timeoutMs, log),
    http,
    leases,
    leaseKeeper,
    flusher,
    metrics,
    stats: { released: 0 },
    log,
    running: () => true,
    onFinished: () => {},
    clock: realClock,
  });
  const source = new DeliverySource(db.pool, workerId, leaseSeconds, leases);
  return { leases, leaseKeeper, dispatcher, source };
}

/** One event's first attempt, taken by the worker, whose endpoint is then deleted (its row alone). */
async function takenThenEndpointDeleted(source: DeliverySource) {
  const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/raced`, { eventTypes: ['endpoint.raced'] });
  await sendEvent(db.pool, appId, 'endpoint.raced');
  const taken = await source.take(10);
  expect(taken.rows.map((row) => row.endpoint_id)).toEqual([endpoint.id]);
  await db.pool.query(`DELETE FROM hookline.endpoints WHERE id = $1`, [endpoint.id]);
  return taken.rows;
}

async function deliveryState(id: string): Promise<{ state: string; leased: boolean } | null> {
  const { rows } = await db.pool.query<{ state: string; leased: boolean }>(
    `SELECT state, lease_owner IS NOT NULL AS leased FROM hookline.deliveries WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

describe('deliveries of an endpoint deleted during their fan-out', () => {
  it('are deleted unsent, and their fan-out batch is finished', async () => {
    const { leases, dispatcher, source } = dispatchStage('orphans-deleted-test', db.pool);
    const requestsBefore = receiver.requests.length;
    const [row] = await takenThenEndpointDeleted(source);
    const [batchId] = leases.batches();

    await dispatcher.dispatch([row!]);
    expect({
      row: await deliveryState(row!.id),
      held: dispatcher.held,
      inBook: leases.holds(row!.id),
      finished: leases.finishedBatches(),
      requests: receiver.requests.length - requestsBefore,
    }).toEqual({ row: null, held: 0, inBook: false, finished: [batchId], requests: 0 });
  });

  it('leave nothing behind when the delete failed: their batch expires and writes no row for the deleted endpoint, never sent', async () => {
    const { leases, leaseKeeper, dispatcher, source } = dispatchStage('orphans-abandoned-test', throughProxy);
    const requestsBefore = receiver.requests.length;
    const [row] = await takenThenEndpointDeleted(source);
    const [batchId] = leases.batches();

    // The delete fails (the worker's own connection is cut): given up unwritten, so the batch stays.
    proxy.goDown();
    await dispatcher.dispatch([row!]);
    proxy.reconnect();
    expect({ inBook: leases.holds(row!.id), finished: leases.finishedBatches(), renewed: leases.batches() }).toEqual({
      inBook: false,
      finished: [],
      renewed: [],
    });
    // A first attempt has no row until its outcome is written (migration
    // 20261206090000_first_attempts_written_once): the batch row alone holds it.
    expect(await deliveryState(row!.id)).toBeNull();
    expect(await countRows(db.pool, 'fanout_batches', 'id = $1', [batchId])).toBe(1);

    // Its lease runs out (no longer renewed); any worker's release of expired leases writes the rows of
    // the batch's first attempts that have none, but only for endpoints that still exist.
    await db.pool.query(
      `UPDATE hookline.fanout_batches SET lease_expires_at = now() - interval '1 millisecond' WHERE id = $1`,
      [batchId],
    );
    expect(await leaseKeeper.releaseExpiredBatchLeases()).toBe(0);
    expect(await countRows(db.pool, 'fanout_batches', 'id = $1', [batchId])).toBe(0);
    expect(await deliveryState(row!.id)).toBeNull();
    expect((await source.take(10)).rows).toEqual([]);
    expect(receiver.requests.length - requestsBefore).toBe(0);
  });
});
