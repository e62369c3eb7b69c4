// SIGTERM and SIGINT to a real worker process (worker/main.ts, worker/shutdown.ts): the first signal
// drains (no more claims; deliveries waiting for an endpoint slot go back without spending an
// attempt; in-flight ones finish and are recorded; exit 0), the grace period or a second signal cuts
// the wait short (in-flight deliveries go back too, unspent). test/worker/end-to-end.test.ts covers
// DeliveryWorker.stop() in-process; this is what an operator's `kill` or Ctrl-C does.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver, type ReceiverHandler } from '../support/receiver';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { skipFanOut, waitingForFanOut } from '../support/deliveries';
import {
  deliveriesLeasedBy,
  isRunning,
  killAll,
  spawnWorker,
  waitForLog,
  type WorkerProcess,
} from '../support/worker-process';

let db: TestDatabase;
let appId: string;
const spawned: WorkerProcess[] = [];
const receivers: Receiver[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Ix');
});

afterEach(async () => {
  await killAll(spawned.splice(0));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  // What a test left unsent is not the next test's work.
  await skipFanOut(db.pool);
  await db.pool.query(
    `UPDATE hookline.deliveries SET state = 'cancelled', lease_owner = NULL, lease_expires_at = NULL, claimable_at = NULL
      WHERE state IN ('pending', 'delivering')`,
  );
});

interface Row {
  id: string;
  message_id: string;
  state: string;
  attempt_count: number;
  lease_owner: string | null;
  next_attempt_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A receiver, an endpoint taking `eventType` with `maxConcurrency` connections, and `count` events for it. */
async function setUp(eventType: string, handler: ReceiverHandler, maxConcurrency: number) {
  const receiver = await startReceiver(handler);
  receivers.push(receiver);
  await createEventType(db.pool, appId, eventType);
  const endpoint = await createEndpoint(db.pool, appId, receiver.url, { eventTypes: [eventType], maxConcurrency });
  const send = (count: number) =>
    db.pool.query(`SELECT hookline.send($1, $2, jsonb_build_object('n', n)) FROM generate_series(1, $3::int) AS n`, [
      appId,
      eventType,
      count,
    ]);
  const rows = async () =>
    (
      await db.pool.query<Row>('SELECT * FROM hookline.deliveries WHERE endpoint_id = $1 ORDER BY created_at, id', [
        endpoint.id,
      ])
    ).rows;
  // The unfinished ones, first attempts included: those have no row until their outcome is written
  // (migration 20261206090000_first_attempts_written_once). Their message's public id, as webhook-id shows it.
  const unfinished = async () =>
    (
      await db.pool.query<Pick<Row, 'id' | 'message_id' | 'state' | 'attempt_count'>>(
        `SELECT id, hookline.public_id('msg', message_id) AS message_id, state, attempt_count
           FROM hookline.unfinished_deliveries WHERE endpoint_id = $1`,
        [endpoint.id],
      )
    ).rows;
  const attempts = () => countRows(db.pool, 'attempts', 'endpoint_id = $1', [endpoint.id]);
  return { receiver, endpoint, send, rows, unfinished, attempts };
}

function startWorker(env: Record<string, string>): WorkerProcess {
  const worker = spawnWorker(db.url, env);
  spawned.push(worker);
  return worker;
}

const neverAnswer: ReceiverHandler = () => {};

describe('SIGTERM', () => {
  it('stops claiming, lets in-flight deliveries finish, gives waiting ones back unspent, and exits 0', async () => {
    const answers: ServerResponse[] = [];
    const { receiver, send, rows, unfinished, attempts } = await setUp(
      'ix.drained',
      (_request, response) => {
        answers.push(response);
      },
      2,
    );
    // Long lease and deadline: nothing may come back or time out on its own during the test.
    const worker = startWorker({
      HOOKLINE_LEASE_SECONDS: '60',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '30000',
      HOOKLINE_SHUTDOWN_GRACE: '30s',
      // The two in-flight successes then leave attempt rows: recorded, not merely released.
      HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS: 'true',
    });
    await send(6);
    // 2 in flight (the endpoint's connection cap), 4 claimed and waiting for a slot.
    await receiver.waitForRequests(2, 20_000);
    const claimed = await waitUntil(
      async () => {
        const leased = await deliveriesLeasedBy(db.pool, worker.pid);
        return leased.length === 6 ? leased : null;
      },
      { what: 'the worker to hold all 6 leases' },
    );
    const sentMessages = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    const inFlight = new Set(
      (await unfinished()).filter((row) => sentMessages.has(row.message_id)).map((row) => row.id),
    );

    worker.child.kill('SIGTERM');
    await waitForLog(worker, 'draining');
    // Draining, still alive: events sent now must wait for another worker.
    await send(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isRunning(worker)).toBe(true);
    expect(receiver.requests).toHaveLength(2);
    for (const answer of answers) answer.writeHead(200).end('ok');

    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(receiver.requests).toHaveLength(2);
    const after = await rows();
    // The events sent while draining were never fanned out: they wait for another worker's fan-out.
    expect(after).toHaveLength(6);
    expect(await waitingForFanOut(db.pool)).toBe(3);
    const sentBefore = after;
    expect(sentBefore.map((row) => row.id).sort()).toEqual([...claimed].sort());
    for (const row of sentBefore) {
      if (inFlight.has(row.id)) expect(row).toMatchObject({ state: 'succeeded', attempt_count: 1, lease_owner: null });
      else expect(row).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: null });
      if (!inFlight.has(row.id)) expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(inFlight.size).toBe(2);
    expect(await attempts()).toBe(2);
    expect(worker.logged('stopped')).toBe(1);
  }, 60_000);

  it('releases in-flight deliveries unspent when the grace period runs out, and exits 0', async () => {
    const { receiver, send, rows, attempts } = await setUp('ix.graceless', neverAnswer, 3);
    const worker = startWorker({
      HOOKLINE_LEASE_SECONDS: '60',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '30000',
      HOOKLINE_SHUTDOWN_GRACE: '1s',
    });
    await send(3);
    await receiver.waitForRequests(3, 20_000);
    expect(await deliveriesLeasedBy(db.pool, worker.pid)).toHaveLength(3);

    const signalledAt = Date.now();
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    const tookMs = Date.now() - signalledAt;
    // The 1 s grace, and not the 30 s attempt deadline.
    expect(tookMs).toBeGreaterThanOrEqual(900);
    expect(tookMs).toBeLessThan(5000);
    expect(await rows()).toHaveLength(3);
    for (const row of await rows())
      expect(row).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: null });
    expect(await attempts()).toBe(0);
  }, 60_000);

  it('a second signal forces the stop: in-flight deliveries go back unspent, exit 0 at once', async () => {
    const { receiver, send, rows, attempts } = await setUp('ix.forced', neverAnswer, 3);
    const worker = startWorker({
      HOOKLINE_LEASE_SECONDS: '60',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '30000',
      HOOKLINE_SHUTDOWN_GRACE: '60s',
    });
    await send(3);
    await receiver.waitForRequests(3, 20_000);

    worker.child.kill('SIGTERM');
    await waitForLog(worker, 'draining');
    // The first signal alone waits for the receiver, which never answers.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(worker)).toBe(true);
    expect(await deliveriesLeasedBy(db.pool, worker.pid)).toHaveLength(3);

    const secondAt = Date.now();
    worker.child.kill('SIGINT');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - secondAt).toBeLessThan(3000);
    expect(worker.logged('second signal: forcing stop')).toBe(1);
    expect(await rows()).toHaveLength(3);
    for (const row of await rows())
      expect(row).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: null });
    expect(await attempts()).toBe(0);
  }, 60_000);
});

describe('SIGTERM while the database is unreachable', () => {
  // Five requests in flight when the database goes away; their answers arrive after, so their
  // results can only wait in the worker's buffer. Then the stop.
  async function stopWithResultsWaiting(eventType: string, grace: string) {
    const answers: ServerResponse[] = [];
    const { receiver, send, rows, unfinished } = await setUp(
      eventType,
      (_request, response) => void answers.push(response),
      5,
    );
    const proxy = await startTcpProxy(Number(new URL(db.url).port));
    proxies.push(proxy);
    const worker = spawnWorker(proxy.url(db.url), {
      HOOKLINE_LEASE_SECONDS: '60',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '30000',
      HOOKLINE_SHUTDOWN_GRACE: grace,
    });
    spawned.push(worker);
    await send(5);
    await receiver.waitForRequests(5, 20_000);
    proxy.goDown();
    for (const answer of answers) answer.writeHead(200).end('ok');
    await waitForLog(worker, 'flush failed; will retry');
    worker.child.kill('SIGTERM');
    await waitForLog(worker, 'draining');
    return { proxy, worker, rows, unfinished };
  }

  it('keeps trying to record its results until the deadline, and exits 0 if the database comes back', async () => {
    const { proxy, worker, rows } = await stopWithResultsWaiting('ix.back-in-time', '20s');
    const failuresBefore = worker.logged('flush failed; will retry');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Still trying while it stops (at most a second apart), not given up at the first failure.
    expect(worker.logged('flush failed; will retry')).toBeGreaterThan(failuresBefore);
    expect(isRunning(worker)).toBe(true);
    proxy.reconnect();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await rows()).toHaveLength(5);
    for (const row of await rows())
      expect(row).toMatchObject({ state: 'succeeded', attempt_count: 1, lease_owner: null });
    expect(worker.lastLogged('stopped')).toMatchObject({ succeeded: 5, unwritten: 0 });
  }, 60_000);

  it('past the deadline, says how many results it could not record and what happens to them, and exits 1', async () => {
    const { worker, rows, unfinished } = await stopWithResultsWaiting('ix.too-late', '2s');
    expect(await worker.exited).toEqual({ code: 1, signal: null });
    const unrecorded = worker.lastLogged(
      'stopped with results not recorded: the database did not take them before the deadline',
    );
    expect(unrecorded).toMatchObject({ unwritten: 5 });
    expect(String(unrecorded?.whatHappens)).toMatch(/sends them again/);
    expect(worker.lastLogged('stopped')).toMatchObject({ succeeded: 0, unwritten: 5 });
    // Sent, and not recorded: still leased (first attempts: through their fan-out batch's row, with no
    // row of their own yet), so they go out again once the lease runs out.
    expect(await rows()).toEqual([]);
    const held = await unfinished();
    expect(held).toHaveLength(5);
    for (const row of held) expect(row).toMatchObject({ state: 'delivering', attempt_count: 0 });
  }, 60_000);
});
