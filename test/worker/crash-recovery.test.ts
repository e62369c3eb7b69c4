// Workers that die or freeze at any instant lose no delivery and spend no attempt: their leases run
// out and another worker sends the deliveries again, under the same webhook-id with the same body
// bytes, and whatever the dead or frozen worker writes late is fenced off by its lost lease.
// Real worker processes (worker/main.ts) killed with SIGKILL and frozen with SIGSTOP, a real receiver
// on 127.0.0.1 and the real queue in PostgreSQL.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type ReceivedRequest, type Receiver } from '../support/receiver';
import { waitingForFanOut } from '../support/deliveries';
import {
  deliveriesLeasedBy,
  isRunning,
  killAll,
  leaseOwnedBy,
  processState,
  scrapeMetrics,
  signal,
  spawnWorker,
  type WorkerProcess,
} from '../support/worker-process';

let db: TestDatabase;
let appId: string;
// What a worker logs when the lease fence refused some of its results (worker/flush.ts).
const NOT_RECORDED = "results not recorded: their leases were no longer this worker's";
const spawned: WorkerProcess[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Caladan');
  // An observer, not a change: every lease taken from its owner after it ran out (a claim of a row
  // still 'delivering', or a first attempt given back with its fan-out batch's lease) is logged with the
  // previous owner, so a test can say whose lease a resent delivery came from, whenever it happened.
  await db.pool.query(`
    CREATE TABLE public.lease_takeovers (
      delivery_id uuid NOT NULL,
      previous_owner text NOT NULL,
      new_owner text,
      taken_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE FUNCTION public.log_lease_takeover() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO public.lease_takeovers (delivery_id, previous_owner, new_owner)
      VALUES (NEW.id, OLD.lease_owner, NEW.lease_owner);
      RETURN NULL;
    END $$;
    -- A claim of a row whose lease ran out (delivering to delivering), or a first attempt given back to
    -- the queue because its fan-out batch's lease ran out (release-expired-batch-leases.sql: an expired
    -- lease dropped without an attempt counted).
    CREATE TRIGGER deliveries_lease_takeover AFTER UPDATE ON hookline.deliveries FOR EACH ROW
      WHEN (OLD.state = 'delivering' AND (NEW.state = 'delivering' OR (
              NEW.lease_owner IS NULL AND NEW.attempt_count = OLD.attempt_count AND OLD.lease_expires_at <= now())))
      EXECUTE FUNCTION public.log_lease_takeover();
    -- A first attempt has no row until its outcome is written (migration
    -- 20261206090000_first_attempts_written_once): when and how each row was first written.
    CREATE TABLE public.rows_written (
      delivery_id uuid NOT NULL,
      state text NOT NULL,
      attempt_count int NOT NULL,
      written_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE FUNCTION public.log_row_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO public.rows_written (delivery_id, state, attempt_count) VALUES (NEW.id, NEW.state, NEW.attempt_count);
      RETURN NULL;
    END $$;
    CREATE TRIGGER deliveries_row_written AFTER INSERT ON hookline.deliveries FOR EACH ROW
      EXECUTE FUNCTION public.log_row_written();
  `);
});

// Each test starts from no worker at all: one test's survivors must not claim the next one's events.
afterEach(async () => {
  await killAll(spawned.splice(0));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

function startWorker(env: Record<string, string> = {}): WorkerProcess {
  const worker = spawnWorker(db.url, env);
  spawned.push(worker);
  return worker;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** For a failure message: the queue by state, what each live worker logged, and what Postgres is doing. */
async function describeQueue(live: WorkerProcess[], kills: number): Promise<string> {
  const { rows: states } = await db.pool.query<{ state: string; count: number }>(
    'SELECT state, count(*)::int AS count FROM hookline.deliveries GROUP BY state',
  );
  const { rows: backends } = await db.pool.query<{ state: string; wait: string | null; count: number }>(
    `SELECT state, wait_event_type || ':' || wait_event AS wait, count(*)::int AS count
       FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1, 2`,
  );
  const waiting = await waitingForFanOut(db.pool);
  const workers = live.map((worker) => ({
    pid: worker.pid,
    started: worker.started(),
    claimFailures: worker.logged('claim failed; retrying'),
    flushFailures: worker.logged('flush failed; will retry'),
    tail: worker.output().slice(-600),
  }));
  return JSON.stringify({ kills, states, waitingForFanOut: waiting, backends, workers }, null, 1);
}

/** The event's sequence number, from the body the receiver got. */
const sequenceOf = (request: ReceivedRequest) => (JSON.parse(request.body) as { data: { n: number } }).data.n;

describe('SIGKILL at random instants', () => {
  it('delivers 10,000 events while a random one of 4 workers is killed every few hundred ms', async () => {
    const EVENTS = 10_000;
    const MAX_KILLS = 16;
    // 0-10 ms per answer keeps a few dozen requests in flight in every worker, so most kills land
    // between a request and the flush of its result: the case that makes duplicates.
    const receiver = await startReceiver((_request, response) => {
      setTimeout(() => response.writeHead(200).end('ok'), Math.random() * 10);
    });
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'storm.logged');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/storm`, {
      eventTypes: ['storm.logged'],
      maxConcurrency: 32,
    });
    // At most 64 claimed at a time (plus results not flushed yet): what a kill strands for one lease.
    // A long attempt deadline: on a loaded machine a starved worker can take more than the fast tests'
    // 1 s to read an answer, and a timeout would be a failed attempt, not a crash. Leases are renewed,
    // so a request may outlive one.
    const env = {
      HOOKLINE_WORKER_CONCURRENCY: '64',
      HOOKLINE_WORKER_BATCH_SIZE: '64',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '10000',
    };
    const live = new Set<WorkerProcess>(Array.from({ length: 4 }, () => startWorker(env)));

    // Producers keep sending while workers die: 20 transactions of 500 events, one every 600 ms, so
    // the work lasts as long as the storm (delivering all at once took under 20 s, fewer kills than
    // the storm has).
    const producing = (async () => {
      for (let from = 1; from <= EVENTS; from += 500) {
        await db.pool.query(
          `SELECT hookline.send($1, 'storm.logged', jsonb_build_object('n', n))
             FROM generate_series($2::int, $2::int + 499) AS n`,
          [appId, from],
        );
        await sleep(600);
      }
    })();

    const succeeded = () => countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id]);
    /** Each victim: how it died, and how many deliveries it held leased at that instant. */
    const kills: { pid: number; signal: NodeJS.Signals | null; leased: number; leasedIds: string[] }[] = [];
    const started = Date.now();
    let done = false;
    while (!done) {
      await sleep(300 + Math.random() * 400);
      done = (await succeeded()) === EVENTS;
      if (Date.now() - started > 60_000)
        throw new Error(`stuck after 60 s: ${await describeQueue([...live], kills.length)}`);
      // A restart costs ~0.8 s of CPU (node, tsx, pg, undici, zod) on a 2-core machine that also runs
      // Postgres and the receiver: a kill every 500 ms for the whole run would leave next to nothing
      // for delivering. So the storm is bounded, it only hits workers that are up and claiming, and it
      // spares the last one of those (on a loaded machine restarts can take seconds).
      const victims = [...live].filter((worker) => worker.started());
      if (done || kills.length >= MAX_KILLS || victims.length < 2) continue;
      const victim = victims[Math.floor(Math.random() * victims.length)]!;
      victim.child.kill('SIGKILL');
      const exit = await victim.exited;
      live.delete(victim);
      // Read at once, before the 2 s lease runs out and another worker takes them over.
      const leased = await deliveriesLeasedBy(db.pool, victim.pid);
      kills.push({ pid: victim.pid, signal: exit.signal, leased: leased.length, leasedIds: leased });
      live.add(startWorker(env));
    }
    await producing;

    // The faults happened: every victim died of SIGKILL, many of them holding leases...
    // (On a loaded machine restarts take seconds and the storm runs out of started victims before it
    // reaches MAX_KILLS; half of it is still a storm.)
    expect(kills.length).toBeGreaterThanOrEqual(MAX_KILLS / 2);
    expect(kills.filter((kill) => kill.signal !== 'SIGKILL')).toEqual([]);
    expect(kills.filter((kill) => kill.leased > 0).length).toBeGreaterThan(kills.length / 4);
    // ...and no survivor ever exited.
    expect([...live].filter((worker) => !isRunning(worker))).toEqual([]);

    // Every event delivered, each delivery succeeded on its first recorded attempt: a crash costs a
    // resend, never one of the delivery's retries.
    const { rows } = await db.pool.query<{
      id: string;
      message_id: string;
      n: number;
      state: string;
      attempt_count: number;
    }>(
      `SELECT d.id, hookline.public_id('msg', d.message_id) AS message_id, (m.payload ->> 'n')::int AS n, d.state,
              d.attempt_count
         FROM hookline.deliveries AS d JOIN hookline.messages AS m ON m.id = d.message_id
        WHERE d.endpoint_id = $1`,
      [endpoint.id],
    );
    expect(rows).toHaveLength(EVENTS);
    expect(rows.filter((row) => row.state !== 'succeeded' || row.attempt_count !== 1)).toEqual([]);
    // Every attempt succeeded (successes live on their delivery rows): no failure was recorded.
    expect(await countRows(db.pool, 'attempts', 'endpoint_id = $1', [endpoint.id])).toBe(0);

    // The receiver saw every event. One it saw more than once was in flight in a killed worker (its
    // lease was taken over from a killed process), and came again under the same webhook-id with the
    // same body bytes.
    const { rows: takeovers } = await db.pool.query<{
      delivery_id: string;
      previous_owner: string;
      new_owner: string | null;
      taken_at: Date;
    }>('SELECT delivery_id, previous_owner, new_owner, taken_at FROM public.lease_takeovers');
    const killedOwners = kills.map((kill) => new RegExp(leaseOwnedBy(kill.pid)));
    // A first attempt has no row to take over: it was leased to the killed worker when it died (read at
    // once, before its batch's lease ran out).
    const takenFromKilled = new Set([
      ...takeovers
        .filter((takeover) => killedOwners.some((owner) => owner.test(takeover.previous_owner)))
        .map((takeover) => takeover.delivery_id),
      ...kills.flatMap((kill) => kill.leasedIds),
    ]);
    const requestsBySequence = new Map<number, ReceivedRequest[]>();
    for (const request of receiver.requests) {
      const n = sequenceOf(request);
      requestsBySequence.set(n, [...(requestsBySequence.get(n) ?? []), request]);
    }
    expect(requestsBySequence.size).toBe(EVENTS);
    const resent: number[] = [];
    for (const row of rows) {
      const requests = requestsBySequence.get(row.n)!;
      for (const request of requests) {
        expect(request.headers['webhook-id']).toBe(row.message_id);
        expect(request.body).toBe(requests[0]!.body);
      }
      if (requests.length > 1) {
        resent.push(row.n);
        const history = takeovers.filter((takeover) => takeover.delivery_id === row.id);
        expect(
          takenFromKilled.has(row.id),
          `event ${row.n} arrived ${requests.length} times (at ${requests.map((r) => r.receivedAt).join(', ')}); ` +
            `lease takeovers: ${JSON.stringify(history)}; kills: ${JSON.stringify(kills)}`,
        ).toBe(true);
      }
    }
    // Some requests really were lost with their worker and sent again.
    expect(resent.length).toBeGreaterThan(0);
  }, 90_000);
});

describe('SIGSTOP while holding leases', () => {
  it('with the default settings, nothing a frozen worker claimed waits more than 15 s for another worker', async () => {
    // The receiver never answers the worker that will freeze (its 10 connections stay in flight for the
    // whole freeze, as a worker stopped mid-request leaves them); everything after the freeze is answered.
    let frozenAt = Infinity;
    const receiver = await startReceiver((_request, response) => {
      if (Date.now() >= frozenAt) response.writeHead(200).end('ok');
    });
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'ice.cracked');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/ice`, { eventTypes: ['ice.cracked'] });
    // Hookline's defaults (lib/runtime/env.ts), not the fast test settings.
    const defaults = {
      HOOKLINE_LEASE_SECONDS: '10',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '15000',
      HOOKLINE_POLL_INTERVAL_MS: '1000',
      HOOKLINE_WORKER_CONCURRENCY: '256',
      HOOKLINE_WORKER_BATCH_SIZE: '500',
    };
    const frozen = startWorker(defaults);
    await waitUntil(frozen.started, { timeoutMs: 20_000, what: 'the first worker to start' });
    const EVENTS = 300;
    await db.pool.query(
      `SELECT hookline.send($1, 'ice.cracked', jsonb_build_object('n', n)) FROM generate_series(1, ${EVENTS}) AS n`,
      [appId],
    );
    await receiver.waitForRequests(10, 20_000);
    // Give it time to claim all it wants: 10 sending (the endpoint's connections) and some waiting.
    await sleep(500);
    const held = await deliveriesLeasedBy(db.pool, frozen.pid);
    // What a frozen worker holds back is bounded: its requests in flight and at most half a batch
    // waiting for a connection, not everything it could claim.
    expect(held.length).toBeGreaterThanOrEqual(10);
    expect(held.length).toBeLessThanOrEqual(10 + 128);

    signal(frozen, 'SIGSTOP');
    await waitUntil(() => processState(frozen.pid) === 'T', { what: 'the kernel to stop the worker' });
    frozenAt = Date.now();
    startWorker(defaults);
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) === EVENTS,
      { timeoutMs: 40_000, what: 'every event delivered by the second worker' },
    );
    const waits = new Map<string, number>();
    for (const request of receiver.requests) {
      if (request.receivedAt < frozenAt) continue;
      const id = request.headers['webhook-id'] as string;
      if (!waits.has(id)) waits.set(id, request.receivedAt - frozenAt);
    }
    expect(waits.size).toBe(EVENTS);
    const longest = Math.max(...waits.values());
    // The frozen worker's leases end at most 10 s after its last renewal (a third of a lease before
    // the freeze at the latest); the second worker takes each over as it ends.
    expect(longest).toBeLessThan(15_000);
    // The ones it held did wait for their leases to end: none was taken while it could still renew.
    const { rows: heldMessages } = await db.pool.query<{ message_id: string }>(
      `SELECT hookline.public_id('msg', message_id) AS message_id FROM hookline.deliveries WHERE id = ANY($1)`,
      [held],
    );
    expect(Math.min(...heldMessages.map((row) => waits.get(row.message_id)!))).toBeGreaterThan(3_000);
    expect(isRunning(frozen)).toBe(true);
    signal(frozen, 'SIGCONT');
  }, 90_000);

  it("redelivers a frozen worker's deliveries after its lease ran out; its late results change nothing", async () => {
    // The receiver holds every request until told otherwise: the frozen worker's stay in flight for
    // the whole freeze (and time out the moment it resumes); the rescuer's stay in flight while the
    // frozen worker writes its late results, so those meet a row leased to the rescuer.
    const unanswered: ServerResponse[] = [];
    let answering = false;
    const receiver = await startReceiver((_request, response) => {
      if (answering) response.writeHead(200).end('ok');
      else unanswered.push(response);
    });
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'frost.formed');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/frost`, { eventTypes: ['frost.formed'] });
    const metricsPort = await freePort();
    const frozen = startWorker({ HOOKLINE_METRICS_PORT: String(metricsPort) });
    await waitUntil(frozen.started, { timeoutMs: 20_000, what: 'the first worker to start' });
    await db.pool.query(
      `SELECT hookline.send($1, 'frost.formed', jsonb_build_object('n', n)) FROM generate_series(1, 5) AS n`,
      [appId],
    );
    await receiver.waitForRequests(5);

    signal(frozen, 'SIGSTOP');
    await waitUntil(() => processState(frozen.pid) === 'T', { what: 'the kernel to stop the worker' });
    const deliveries = async () =>
      (
        await db.pool.query<{
          id: string;
          state: string;
          attempt_count: number;
          lease_owner: string | null;
          lease_expires_at: Date | null;
        }>('SELECT * FROM hookline.deliveries WHERE endpoint_id = $1 ORDER BY id', [endpoint.id])
      ).rows;
    // First attempts: no rows yet, leased through their fan-out batch's row (the view shows them).
    const { rows: leasedWhileFrozen } = await db.pool.query<{ id: string; lease_expires_at: Date }>(
      `SELECT id, lease_expires_at FROM hookline.unfinished_deliveries WHERE endpoint_id = $1 ORDER BY id`,
      [endpoint.id],
    );
    expect(await deliveries()).toEqual([]);
    expect(leasedWhileFrozen).toHaveLength(5);
    expect(leasedWhileFrozen.map((row) => row.id)).toEqual(await deliveriesLeasedBy(db.pool, frozen.pid));
    const leaseEnd = Math.max(...leasedWhileFrozen.map((row) => row.lease_expires_at!.getTime()));

    // A long deadline and lease for the rescuer: its requests wait at the receiver on purpose.
    // The rescuer keeps its successes' attempt rows, which name the worker that recorded them.
    const rescuer = startWorker({
      HOOKLINE_DELIVERY_TIMEOUT_MS: '20000',
      HOOKLINE_LEASE_SECONDS: '30',
      HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS: 'true',
    });
    await receiver.waitForRequests(10, 20_000);
    const takenOver = await waitUntil(
      async () => {
        const rows = await deliveriesLeasedBy(db.pool, rescuer.pid);
        return rows.length === 5 ? rows : null;
      },
      { what: 'the rescuer to hold the leases' },
    );
    expect(takenOver).toEqual(leasedWhileFrozen.map((row) => row.id));
    expect(processState(frozen.pid)).toBe('T');
    // Their rows were written, to be claimed again, only once the frozen worker's batch lease had run out.
    const { rows: written } = await db.pool.query<{ state: string; attempt_count: number; written_at: Date }>(
      'SELECT state, attempt_count, written_at FROM public.rows_written WHERE delivery_id = ANY($1)',
      [takenOver],
    );
    expect(written).toHaveLength(5);
    for (const row of written) {
      expect(row).toMatchObject({ state: 'pending', attempt_count: 0 });
      expect(row.written_at.getTime()).toBeGreaterThanOrEqual(leaseEnd - 50);
    }
    // Sent again not a moment before the frozen worker's lease ran out (same host, same clock), under
    // the same webhook-id with the same body.
    const [first, again] = [receiver.requests.slice(0, 5), receiver.requests.slice(5)];
    for (const request of again) {
      expect(request.receivedAt).toBeGreaterThanOrEqual(leaseEnd - 50);
      const original = first.find((earlier) => earlier.headers['webhook-id'] === request.headers['webhook-id'])!;
      expect(request.body).toBe(original.body);
    }

    // Everything a late result could touch, while the rescuer's requests are still in flight.
    const snapshot = async () => ({
      deliveries: await deliveries(),
      attempts: (
        await db.pool.query('SELECT * FROM hookline.attempts WHERE endpoint_id = $1 ORDER BY id', [endpoint.id])
      ).rows,
      endpoint: (
        await db.pool.query(
          `SELECT consecutive_failures, failing_since, last_success_at, last_failure_at, last_error_class,
                  circuit_state, circuit_open_until, enabled, updated_at
             FROM hookline.endpoints WHERE id = $1`,
          [endpoint.id],
        )
      ).rows,
      rollups: (await db.pool.query('SELECT * FROM hookline.stats_minutely WHERE endpoint_id = $1', [endpoint.id]))
        .rows,
    });
    const before = await snapshot();
    expect(before.attempts).toEqual([]);

    signal(frozen, 'SIGCONT');
    // It wakes up, its 5 requests time out at once (1 s deadline, long past), and it flushes 5
    // failed attempts, which the lease fence of record-results.sql drops: its metrics count them.
    await waitUntil(
      async () => {
        const { samples } = await scrapeMetrics(metricsPort);
        return (
          samples.get('hookline_attempts_total{outcome="failed",error_class="timeout"}') === 5 &&
          (samples.get('hookline_flush_duration_seconds_count') ?? 0) >= 1
        );
      },
      { timeoutMs: 10_000, what: 'the woken worker to time out its requests and flush' },
    );
    // Flushes run every 5 ms while results wait; 300 ms leaves room for a second one.
    await sleep(300);
    const { samples: late } = await scrapeMetrics(metricsPort);
    expect(late.get('hookline_results_fenced_total')).toBe(5);
    // Its log says where they went: to the worker that took them over (not "lost", not "failed").
    await waitUntil(() => frozen.lastLogged(NOT_RECORDED), {
      what: 'the frozen worker to say what it could not record',
    });
    expect(frozen.lastLogged(NOT_RECORDED)).toMatchObject({ notRecorded: 5, takenOver: 5, givenBack: 0 });
    expect(await snapshot()).toEqual(before);
    expect(isRunning(frozen)).toBe(true);

    // The rescuer's answers arrive: each delivery has one attempt, the rescuer's, and the endpoint
    // never counted the frozen worker's timeouts as failures.
    answering = true;
    for (const response of unanswered.splice(5)) response.writeHead(200).end('ok');
    const rescued = await waitUntil(
      async () => {
        const rows = await deliveries();
        return rows.every((row) => row.state === 'succeeded') ? rows : null;
      },
      { what: 'the rescued deliveries to succeed' },
    );
    expect(rescued.map((row) => row.attempt_count)).toEqual([1, 1, 1, 1, 1]);
    const { rows: attempts } = await db.pool.query<{ worker_id: string; error_class: string | null }>(
      'SELECT worker_id, error_class FROM hookline.attempts WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(attempts).toHaveLength(5);
    for (const attempt of attempts) {
      expect(attempt.worker_id).toMatch(new RegExp(leaseOwnedBy(rescuer.pid)));
      expect(attempt.error_class).toBeNull();
    }
    const [health] = (await snapshot()).endpoint as { consecutive_failures: number; last_failure_at: Date | null }[];
    expect(health).toMatchObject({ consecutive_failures: 0, last_failure_at: null });

    // The frozen worker's stop summary counts no failure for attempts another worker delivered: it
    // recorded nothing, and says its 5 late results went to the worker that took them over.
    signal(frozen, 'SIGTERM');
    expect(await frozen.exited).toEqual({ code: 0, signal: null });
    expect(frozen.lastLogged('stopped')).toMatchObject({
      succeeded: 0,
      failed: 0,
      unwritten: 0,
      notRecorded: { takenOver: 5, givenBack: 0, alreadyFinished: 0, gone: 0, unknown: 0 },
    });
  }, 60_000);
});

describe('SIGKILL while holding a fan-out batch', () => {
  it("gives the batch's first attempts to another worker when its lease ends: none lost, each sent once by the living", async () => {
    // The receiver holds every request until the victim is dead: its first attempts are in flight.
    let answering = false;
    const unanswered: ServerResponse[] = [];
    const receiver = await startReceiver((_request, response) => {
      if (answering) response.writeHead(200).end('ok');
      else unanswered.push(response);
    });
    receivers.push(receiver);
    await createEventType(db.pool, appId, 'sand.shifted');
    const endpoint = await createEndpoint(db.pool, appId, `${receiver.url}/sand`, { eventTypes: ['sand.shifted'] });
    const victim = startWorker();
    await waitUntil(victim.started, { timeoutMs: 20_000, what: 'the first worker to start' });
    // One producer transaction: one fan-out, one batch row holding all five first attempts' lease.
    await db.pool.query(
      `SELECT hookline.send($1, 'sand.shifted', jsonb_build_object('n', n)) FROM generate_series(1, 5) AS n`,
      [appId],
    );
    await receiver.waitForRequests(5);
    const { rows: batches } = await db.pool.query<{ lease_owner: string; lease_expires_at: Date }>(
      'SELECT lease_owner, lease_expires_at FROM hookline.fanout_batches',
    );
    expect(batches).toHaveLength(1);
    expect(batches[0]!.lease_owner).toMatch(new RegExp(leaseOwnedBy(victim.pid)));
    // First attempts have no rows until their outcome: the batch's row holds their lease.
    expect(await countRows(db.pool, 'deliveries', 'endpoint_id = $1', [endpoint.id])).toBe(0);
    const { rows: firstAttempts } = await db.pool.query<{ id: string }>(
      `SELECT id FROM hookline.unfinished_deliveries
        WHERE endpoint_id = $1 AND state = 'delivering' AND lease_owner = $2 ORDER BY id`,
      [endpoint.id, batches[0]!.lease_owner],
    );
    expect(firstAttempts).toHaveLength(5);

    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = Date.now();
    for (const response of unanswered.splice(0)) response.destroy();
    answering = true;
    const rescuer = startWorker();
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) === 5,
      { timeoutMs: 30_000, what: "the victim's first attempts delivered by the rescuer" },
    );
    // The lease ran out first: the batch's row held them until then (renewed until the kill), and then
    // their rows were written 'pending', under the ids the fan-out had given them.
    const { rows: written } = await db.pool.query<{ state: string; attempt_count: number; written_at: Date }>(
      'SELECT state, attempt_count, written_at FROM public.rows_written WHERE delivery_id = ANY($1)',
      [firstAttempts.map((row) => row.id)],
    );
    expect(written).toHaveLength(5);
    for (const row of written) {
      expect(row).toMatchObject({ state: 'pending', attempt_count: 0 });
      expect(row.written_at.getTime()).toBeGreaterThanOrEqual(killedAt);
    }
    // Each sent once after the kill, by the rescuer, under the same webhook-id; none spent an attempt
    // twice, and the batch row is gone.
    const after = receiver.requests.filter((request) => request.receivedAt >= killedAt);
    expect(after.map((request) => request.headers['webhook-id']).sort()).toEqual(
      receiver.requests
        .filter((request) => request.receivedAt < killedAt)
        .map((request) => request.headers['webhook-id'])
        .sort(),
    );
    const { rows: done } = await db.pool.query<{ attempt_count: number }>(
      'SELECT attempt_count FROM hookline.deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(done.map((row) => row.attempt_count)).toEqual([1, 1, 1, 1, 1]);
    expect(await countRows(db.pool, 'fanout_batches')).toBe(0);
    expect(await waitingForFanOut(db.pool)).toBe(0);
    expect(isRunning(rescuer)).toBe(true);
  }, 60_000);
});
