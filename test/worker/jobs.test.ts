// Background jobs (hookline.jobs) run by real workers against a real database and a loopback receiver:
// a replay job acts on exactly the rows its dry-run count counted, 100,000 deliveries are replayed
// while the worker is delivering, a cancel stops a job within a batch, a killed worker's job is resumed
// without redoing a committed batch, and a backfill of 10,000 messages reaches a new endpoint complete
// and in id order.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getPrisma } from '../../lib/database/db';
import { deliveryWhere } from '../../lib/domain/deliveries/delivery-where';
import { backfillEndpoint } from '../../lib/domain/jobs/backfill-endpoint';
import { cancelJob } from '../../lib/domain/jobs/cancel-job';
import { createJob } from '../../lib/domain/jobs/create-job';
import { jobDeliveryFilter } from '../../lib/domain/jobs/count-job';
import type { DeliveryFilter } from '../../lib/contract/schemas/deliveries';
import { JobRunner } from '../../worker/jobs/job-runner';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { killAll, spawnWorker, type WorkerProcess } from '../support/worker-process';
import { startTestWorker, stopTestWorkers, testLogger } from '../support/worker';

let db: TestDatabase;
const runners: JobRunner[] = [];
const receivers: Receiver[] = [];
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
});

afterEach(async () => {
  await stopTestWorkers();
  await killAll(processes.splice(0));
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

afterAll(async () => {
  await getPrisma().$disconnect();
});

function runner(options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}): JobRunner {
  const created = new JobRunner({
    connectionString: db.url,
    workerId: `test-runner-${runners.length}`,
    log: testLogger(),
    pollIntervalMs: 50,
    ...options,
  });
  runners.push(created);
  return created;
}

async function jobRow(id: string) {
  const { rows } = await db.pool.query<{
    state: string;
    total: number;
    processed: number;
    lease_owner: string | null;
    error: string | null;
  }>('SELECT state, total, processed, lease_owner, error FROM hookline.jobs WHERE id = $1', [id]);
  return rows[0]!;
}

/**
 * `count` messages of `eventType` with one delivery each to `endpointId`, created 1 ms apart, payload
 * `{n}` numbering them in creation order, in `state` (dead: failed once with a 500). Ids (one
 * millisecond apart) follow creation order, or run against it with `idsNewestFirst`, so a test can
 * tell creation order from id order. Plain SQL, so the fixture does not depend
 * on the code under test; ~1 s for 100,000 rows. Fanned out long ago (written_by NULL, as every message
 * from before migration 20261130090000_fanout_by_transaction): the fan-out leaves them alone.
 */
async function insertDeliveries(
  appId: string,
  endpointId: string,
  count: number,
  {
    state = 'dead',
    eventType = 'order.created',
    idsNewestFirst = false,
  }: { state?: string; eventType?: string; idsNewestFirst?: boolean } = {},
): Promise<void> {
  await db.pool.query(
    `WITH m AS (
       INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
       SELECT hookline.new_uuid(hookline.id_at('', now() - make_interval(secs => ($4 - i) / 1000.0))::uuid),
              $1, $3, jsonb_build_object('n', CASE WHEN $6 THEN $4 - i + 1 ELSE i END),
              now() - make_interval(secs => (CASE WHEN $6 THEN i ELSE $4 - i END) / 1000.0), NULL
         FROM generate_series(1, $4) AS i
       RETURNING id, created_at)
     INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
            next_attempt_at, claimable_at, last_status_code, last_error_class, created_at)
     SELECT hookline.new_uuid(m.id), $1, m.id, $2, $3, $5, CASE WHEN $5 = 'dead' THEN 1 ELSE 0 END, m.created_at,
            CASE WHEN $5 = 'pending' THEN m.created_at END,
            CASE WHEN $5 = 'dead' THEN 500 END, CASE WHEN $5 = 'dead' THEN 'http_5xx' END, m.created_at
       FROM m`,
    [appId, endpointId, eventType, count, state, idsNewestFirst],
  );
}

describe('a replay job acts on the set its dry run counts', () => {
  it('for every filter key: the rows the job changes are the rows countReplayable counts, and no others', async () => {
    const appId = await createApp(db.pool, 'filters');
    await createEventType(db.pool, appId, 'a.b');
    await createEventType(db.pool, appId, 'c.d');
    const first = (await createEndpoint(db.pool, appId, 'https://example.com/1')).id;
    const second = (await createEndpoint(db.pool, appId, 'https://example.com/2')).id;
    // Every stored state, both event types, both endpoints, attempts 0 to 3, three status codes.
    await db.pool.query(
      `WITH m AS (
         INSERT INTO hookline.messages (app_id, event_type, payload, idempotency_key, created_at, written_by)
         SELECT $1, CASE WHEN i % 2 = 0 THEN 'a.b' ELSE 'c.d' END, '{}', 'key-' || i,
                now() - make_interval(mins => i), NULL
           FROM generate_series(1, 60) AS i
         RETURNING id, event_type, created_at, (idempotency_key) AS k),
       keys AS (INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id) SELECT $1, k, id FROM m)
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
              claimable_at, lease_owner, lease_expires_at, last_status_code, last_error_class, created_at)
       SELECT hookline.new_uuid(m.id), $1, m.id, CASE WHEN n % 3 = 0 THEN $2 ELSE $3 END, m.event_type, s.state,
              CASE WHEN s.state = 'pending' AND n % 2 = 0 THEN 0 ELSE n % 4 END,
              m.created_at,
              CASE WHEN s.state IN ('pending', 'delivering') THEN m.created_at END,
              CASE WHEN s.state = 'delivering' THEN 'someone' END,
              CASE WHEN s.state = 'delivering' THEN now() + interval '1 minute' END,
              (ARRAY[500, 503, 404])[1 + n % 3],
              CASE WHEN s.state IN ('dead', 'cancelled') OR n % 4 > 0 THEN (ARRAY['http_5xx', 'timeout'])[1 + n % 2] END,
              m.created_at
         FROM (SELECT m.*, row_number() OVER (ORDER BY m.id) AS n FROM m) AS m,
              LATERAL (SELECT (ARRAY['pending', 'delivering', 'succeeded', 'dead', 'cancelled'])[1 + m.n % 5] AS state) AS s`,
      [appId, first, second],
    );
    // Public ids, as a job's filter names them.
    const { rows: some } = await db.pool.query<{ id: string; message_id: string; created_at: Date }>(
      `SELECT hookline.public_id('dlv', id) AS id, hookline.public_id('msg', message_id) AS message_id, created_at
         FROM hookline.deliveries WHERE app_id = $1 ORDER BY id LIMIT 1 OFFSET 7`,
      [appId],
    );
    const { rows: dead } = await db.pool.query<{ id: string; message_id: string }>(
      `SELECT hookline.public_id('dlv', id) AS id, hookline.public_id('msg', message_id) AS message_id
         FROM hookline.deliveries WHERE app_id = $1 AND state = 'dead' ORDER BY id LIMIT 1`,
      [appId],
    );
    const from = new Date(Date.now() - 30 * 60_000);
    const filters: DeliveryFilter[] = [
      {},
      { state: 'failed' },
      { state: 'waiting' },
      { state: 'retrying' },
      { state: 'pending' },
      { state: 'succeeded' },
      { state: 'dead', endpointId: first },
      { state: 'cancelled' },
      { state: 'delivering' },
      { eventType: 'a.b', state: 'dead' },
      { errorClass: 'timeout', state: 'dead' },
      { statusCode: 503, state: 'failed' },
      { attemptCount: 2 },
      { minAttempts: 2, state: 'dead' },
      { from, state: 'succeeded' },
      { to: from, state: 'failed' },
      { id: some[0]!.id, state: 'cancelled' },
      { messageId: some[0]!.message_id, state: 'cancelled' },
      { idempotencyKey: 'key-14', state: 'cancelled' },
      { idempotencyKey: 'key-14' },
      // The right digits of a dead delivery (one a job would replay) under another kind's prefix, or
      // none, name nothing: for the count and the job alike (the job read them leniently once, and
      // replayed what its count left out).
      { messageId: dead[0]!.message_id.replace('msg_', 'dlv_') },
      { messageId: dead[0]!.message_id.slice('msg_'.length) },
      { id: dead[0]!.id.replace('dlv_', 'msg_') },
      { id: dead[0]!.id.slice('dlv_'.length) },
    ];
    const prisma = getPrisma();
    let acted = 0;
    for (const filter of filters) {
      const request = { kind: 'replay' as const, filter };
      const where = { AND: [await deliveryWhere(appId, jobDeliveryFilter(request)), { state: { not: 'delivering' } }] };
      const expected = (await prisma.delivery.findMany({ where, select: { id: true }, orderBy: { id: 'asc' } })).map(
        (row) => row.id,
      );
      const before = await db.pool.query<{ id: string; state: string; claimable_at: Date | null }>(
        'SELECT id, state, claimable_at FROM hookline.deliveries WHERE app_id = $1 ORDER BY id',
        [appId],
      );
      const marker = new Date();
      const job = await createJob({ appId, request });
      expect(job.total, JSON.stringify(filter)).toBe(expected.length);
      await runner({ batchSize: 3 }).runUntilIdle();
      const after = await jobRow(job.id);
      expect(after, JSON.stringify(filter)).toMatchObject({ state: 'succeeded', processed: expected.length });
      const { rows: changed } = await db.pool.query<{ id: string }>(
        `SELECT id FROM hookline.deliveries WHERE app_id = $1 AND updated_at >= $2 ORDER BY id`,
        [appId, marker],
      );
      expect(
        changed.map((row) => row.id),
        JSON.stringify(filter),
      ).toEqual(expected);
      // Rows outside the set kept their state; replayed ones are pending and claimable; rows a worker
      // is delivering kept their lease.
      const { rows: now } = await db.pool.query<{
        id: string;
        state: string;
        claimable_at: Date | null;
        lease_owner: string | null;
      }>('SELECT id, state, claimable_at, lease_owner FROM hookline.deliveries WHERE app_id = $1 ORDER BY id', [appId]);
      for (const row of now) {
        if (expected.includes(row.id)) {
          expect(row.state).toBe('pending');
          expect(row.claimable_at).not.toBeNull();
        } else {
          expect(row.state).toBe(before.rows.find((old) => old.id === row.id)!.state);
        }
        if (row.state === 'delivering') expect(row.lease_owner).toBe('someone');
      }
      acted += expected.length;
      // Put the app back as it was for the next filter.
      for (const row of before.rows) {
        await db.pool.query('UPDATE hookline.deliveries SET state = $2, claimable_at = $3 WHERE id = $1', [
          row.id,
          row.state,
          row.claimable_at,
        ]);
      }
    }
    expect(acted).toBeGreaterThan(50);
  }, 120_000);

  it('recover counts and replays the failed deliveries of one endpoint since a time, through the same job', async () => {
    const appId = await createApp(db.pool, 'recover');
    const endpoint = (await createEndpoint(db.pool, appId, 'https://example.com/recover')).id;
    const other = (await createEndpoint(db.pool, appId, 'https://example.com/other')).id;
    await insertDeliveries(appId, endpoint, 50, { state: 'dead' });
    await insertDeliveries(appId, endpoint, 20, { state: 'succeeded' });
    await insertDeliveries(appId, other, 30, { state: 'dead' });
    const job = await createJob({
      appId,
      request: { kind: 'recover', endpointId: endpoint, since: new Date(Date.now() - 3600e3) },
    });
    expect(job.total).toBe(50);
    await runner().runUntilIdle();
    expect(await jobRow(job.id)).toMatchObject({ state: 'succeeded', processed: 50 });
    const { rows } = await db.pool.query<{ endpoint_id: string; state: string; count: number }>(
      `SELECT endpoint_id, state, count(*)::int AS count FROM hookline.deliveries WHERE app_id = $1
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [appId],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { endpoint_id: endpoint, state: 'pending', count: 50 },
        { endpoint_id: endpoint, state: 'succeeded', count: 20 },
        { endpoint_id: other, state: 'dead', count: 30 },
      ]),
    );
  });
});

/** The job.finished operational events recorded for a job: its data, one per ending. */
async function finishedEvents(jobId: string): Promise<Record<string, unknown>[]> {
  const { rows } = await db.pool.query<{ data: Record<string, unknown> }>(
    `SELECT data FROM hookline.operational_events WHERE type = 'job.finished' AND data ->> 'job_id' = $1`,
    [jobId],
  );
  return rows.map((row) => row.data);
}

describe('replaying 100,000 deliveries while the worker is delivering', () => {
  it('delivers every replayed one exactly once, and the new events too; progress reaches the total', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const appId = await createApp(db.pool, 'bulk');
    await createEventType(db.pool, appId, 'order.created');
    const endpoint = (await createEndpoint(db.pool, appId, `${receiver.url}/hooks`, { maxConcurrency: 64 })).id;
    await insertDeliveries(appId, endpoint, 100_000, { state: 'dead' });
    // A 15 s attempt deadline: on a loaded machine the test's 2 s one timed live requests out that the
    // receiver had already answered, and their retries (legitimate: a timeout is a failure) showed up
    // here as a second request for the same webhook-id.
    await startTestWorker(db.url, {
      concurrency: 256,
      batchSize: 256,
      http: { timeoutMs: 15_000, keepBytes: 4096, drainBytes: 1_048_576 },
      jobs: { batchSize: 2000, pollIntervalMs: 50 },
    });

    // Live traffic before, during and after the job: the worker delivers it alongside.
    const live: string[] = [];
    const sendLive = async (count: number) => {
      const { rows } = await db.pool.query<{ id: string }>(
        `SELECT hookline.send($1, 'order.created', jsonb_build_object('live', i)) AS id FROM generate_series(1, $2) AS i`,
        [appId, count],
      );
      live.push(...rows.map((row) => row.id));
    };
    await sendLive(500);
    const job = await createJob({
      appId,
      request: { kind: 'replay', filter: { state: 'dead', endpointId: endpoint } },
    });
    expect(job.total).toBe(100_000);
    const progress: number[] = [];
    const sending = (async () => {
      for (let round = 0; round < 10; round++) {
        await sendLive(200);
        progress.push((await jobRow(job.id)).processed);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await sending;
    await waitUntil(async () => (await jobRow(job.id)).state === 'succeeded', { timeoutMs: 120_000, what: 'the job' });
    await receiver.waitForRequests(100_000 + live.length, 240_000);
    // Settle: nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(await jobRow(job.id)).toMatchObject({ state: 'succeeded', total: 100_000, processed: 100_000, error: null });
    expect(await finishedEvents(job.id)).toEqual([
      expect.objectContaining({
        job_id: job.id,
        kind: 'replay',
        state: 'succeeded',
        total: 100_000,
        processed: 100_000,
      }),
    ]);
    // Progress was visible while it ran: it grew, and ended at the total.
    expect(progress.some((value) => value > 0 && value < 100_000) || progress.at(-1) === 100_000).toBe(true);
    const perMessage = new Map<string, number>();
    for (const request of receiver.requests) {
      const id = request.headers['webhook-id']!;
      perMessage.set(id, (perMessage.get(id) ?? 0) + 1);
    }
    // No attempt failed (a failure's retry would be a second request, and not a duplicate send).
    expect(await countRows(db.pool, 'attempts', 'endpoint_id = $1', [endpoint])).toBe(0);
    expect(receiver.requests.length).toBe(100_000 + live.length);
    expect([...perMessage.values()].every((count) => count === 1)).toBe(true);
    expect(perMessage.size).toBe(100_000 + live.length);
    for (const id of live) expect(perMessage.get(id)).toBe(1);
    const { rows } = await db.pool.query<{ state: string; count: number }>(
      `SELECT state, count(*)::int AS count FROM hookline.deliveries WHERE app_id = $1 GROUP BY state`,
      [appId],
    );
    expect(rows).toEqual([{ state: 'succeeded', count: 100_000 + live.length }]);
  }, 300_000);
});

describe('cancelling a job', () => {
  it('stops it within a batch: what it did stays done, nothing more changes', async () => {
    const appId = await createApp(db.pool, 'cancel');
    const endpoint = (await createEndpoint(db.pool, appId, 'https://example.com/cancel')).id;
    await insertDeliveries(appId, endpoint, 5_000, { state: 'dead' });
    const job = await createJob({ appId, request: { kind: 'replay', filter: {} } });
    expect(job.total).toBe(5_000);
    runner({ batchSize: 100, batchPauseMs: 30 }).start();
    await waitUntil(async () => (await jobRow(job.id)).processed >= 300, { what: 'progress' });
    const cancelled = await cancelJob({ appId, jobId: job.id });
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.processed).toBeGreaterThanOrEqual(300);
    expect(cancelled.processed).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await jobRow(job.id);
    expect(after).toMatchObject({ state: 'cancelled', processed: cancelled.processed, lease_owner: null });
    const replayed = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM hookline.deliveries WHERE app_id = $1 AND state = 'pending'`,
      [appId],
    );
    expect(replayed.rows[0]!.count).toBe(cancelled.processed);
    // A finished job cannot be cancelled again into another state; cancelling twice answers the same.
    expect((await cancelJob({ appId, jobId: job.id })).state).toBe('cancelled');
    // Ending it recorded one operational event (migration 20261124153000_job_finished_event).
    expect(await finishedEvents(job.id)).toEqual([
      expect.objectContaining({ job_id: job.id, kind: 'replay', state: 'cancelled', processed: cancelled.processed }),
    ]);
  });
});

describe('a worker killed in the middle of a job', () => {
  it('leaves it to another worker after its lease, which resumes at the cursor: every row done once', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const appId = await createApp(db.pool, 'resume');
    const endpoint = (await createEndpoint(db.pool, appId, `${receiver.url}/hooks`)).id;
    await insertDeliveries(appId, endpoint, 10_000, { state: 'dead' });
    const job = await createJob({ appId, request: { kind: 'replay', filter: { state: 'dead' } } });
    const first = spawnWorker(db.url, { HOOKLINE_JOB_BATCH_SIZE: '200', HOOKLINE_JOB_BATCH_PAUSE_MS: '50' });
    processes.push(first);
    await waitUntil(async () => (await jobRow(job.id)).processed >= 1_000, { timeoutMs: 30_000, what: 'progress' });
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await jobRow(job.id);
    expect(atKill.state).toBe('running');
    expect(atKill.processed).toBeLessThan(10_000);
    expect(atKill.lease_owner).toMatch(new RegExp(`-${first.pid}-`));

    const second = runner({ workerId: 'second', batchSize: 500 });
    second.start();
    await waitUntil(async () => (await jobRow(job.id)).state === 'succeeded', {
      timeoutMs: 30_000,
      what: 'the resumed job',
    });
    // processed sums committed batches only: a batch done twice would count twice.
    expect(await jobRow(job.id)).toMatchObject({ state: 'succeeded', processed: 10_000 });
    const dead = await db.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM hookline.deliveries WHERE app_id = $1 AND state = 'dead'`,
      [appId],
    );
    expect(dead.rows[0]!.count).toBe(0);
  }, 90_000);
});

describe('backfilling a new endpoint', () => {
  it('sends it every matching message since T exactly once, complete and in id order', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const appId = await createApp(db.pool, 'backfill');
    await createEventType(db.pool, appId, 'order.created');
    await createEventType(db.pool, appId, 'order.deleted');
    const old = (await createEndpoint(db.pool, appId, 'https://example.com/old', { enabled: false })).id;
    const since = new Date(Date.now() - 3600e3);
    // Before T: not sent. Another event type: not sent. 10,000 since T in creation order, 1 ms apart.
    await db.pool.query(
      `INSERT INTO hookline.messages (app_id, event_type, payload, created_at, written_by)
       SELECT $1, 'order.created', jsonb_build_object('before', i), $2::timestamptz - make_interval(secs => i), NULL
         FROM generate_series(1, 50) AS i`,
      [appId, since],
    );
    // Ids against created_at: the backfill follows the ids (the time each message was written,
    // migration 20261207090000_messages_keyed_by_app), not the time its transaction began.
    await insertDeliveries(appId, old, 10_000, {
      state: 'succeeded',
      eventType: 'order.created',
      idsNewestFirst: true,
    });
    await insertDeliveries(appId, old, 300, { state: 'succeeded', eventType: 'order.deleted' });
    const endpoint = (
      await createEndpoint(db.pool, appId, `${receiver.url}/new`, { eventTypes: ['order.created'], maxConcurrency: 1 })
    ).id;
    // Three of them reached the new endpoint already (its first test, say): not sent again.
    const { rows: already } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, created_at)
       SELECT hookline.new_uuid(id), app_id, id, $2, event_type, 'succeeded', 1, created_at FROM hookline.messages
        WHERE app_id = $1 AND event_type = 'order.created' AND created_at >= $3 ORDER BY created_at LIMIT 3
       RETURNING hookline.public_id('msg', message_id) AS id`,
      [appId, endpoint, since],
    );

    const dryRun = await backfillEndpoint({ appId, endpointId: endpoint, since, dryRun: true });
    expect(dryRun).toEqual({ matched: 9_997 });
    const { job } = (await backfillEndpoint({ appId, endpointId: endpoint, since })) as {
      job: { id: string; total: number };
    };
    expect(job.total).toBe(9_997);
    await startTestWorker(db.url, { concurrency: 64, batchSize: 64, jobs: { batchSize: 500, pollIntervalMs: 50 } });
    await receiver.waitForRequests(9_997, 180_000);
    await waitUntil(async () => (await jobRow(job.id)).state === 'succeeded', { timeoutMs: 30_000, what: 'the job' });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(await jobRow(job.id)).toMatchObject({ state: 'succeeded', total: 9_997, processed: 9_997 });
    const sent = receiver.requests.map((request) => (JSON.parse(request.body) as { data: { n: number } }).data.n);
    expect(sent).toHaveLength(9_997);
    // The fixture's n is its created_at order, against the ids: 10000 down to 4 (1..3 were delivered
    // before).
    expect(sent).toEqual(Array.from({ length: 9_997 }, (_, index) => 10_000 - index));
    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(9_997);
    for (const { id } of already) expect(ids.has(id)).toBe(false);
  }, 240_000);
});

describe('a backfill waiting for its endpoint', () => {
  it('steps aside: a replay created after it runs on the same worker meanwhile, and the backfill goes on after', async () => {
    const appId = await createApp(db.pool, 'waiting backfill');
    await createEventType(db.pool, appId, 'order.created');
    const elsewhere = (await createEndpoint(db.pool, appId, 'https://example.com/elsewhere', { enabled: false })).id;
    await insertDeliveries(appId, elsewhere, 30, { state: 'dead' });
    // No delivery worker runs: the new endpoint never sends, so after the first batch (room: the batch
    // size) the backfill waits for room that never comes.
    const slow = (await createEndpoint(db.pool, appId, 'https://example.com/slow')).id;
    const { job: backfill } = (await backfillEndpoint({
      appId,
      endpointId: slow,
      since: new Date(Date.now() - 3600e3),
    })) as { job: { id: string } };
    runner({ batchSize: 10 }).start();
    await waitUntil(async () => (await jobRow(backfill.id)).processed === 10, { timeoutMs: 10_000, what: 'a batch' });

    const replay = await createJob({ appId, request: { kind: 'replay', filter: { endpointId: elsewhere } } });
    // Before, the one runner kept polling the waiting backfill, and the replay never started.
    await waitUntil(async () => (await jobRow(replay.id)).state === 'succeeded', {
      timeoutMs: 10_000,
      what: 'the replay behind the waiting backfill',
    });
    expect(await jobRow(replay.id)).toMatchObject({ processed: 30, total: 30 });
    expect(await countRows(db.pool, 'deliveries', `endpoint_id = '${elsewhere}' AND state = 'pending'`)).toBe(30);
    // The backfill is still the runner's, waiting: once its endpoint's queue has room it goes on.
    expect(await jobRow(backfill.id)).toMatchObject({ state: 'running', processed: 10 });
    await db.pool.query(
      `UPDATE hookline.deliveries SET claimable_at = NULL, state = 'succeeded' WHERE endpoint_id = $1`,
      [slow],
    );
    await waitUntil(async () => (await jobRow(backfill.id)).processed === 20, {
      timeoutMs: 10_000,
      what: 'the next batch',
    });
  }, 60_000);
});
