// Prometheus /metrics of a real worker process (HOOKLINE_METRICS_PORT, worker/metrics.ts), scraped
// after deliveries of every outcome, and checked against what the database says happened.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { killAll, scrapeMetrics, spawnWorker, type WorkerProcess } from '../support/worker-process';

let db: TestDatabase;
const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await killAll(workers);
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** Values of a histogram's buckets, in the order served, and its count and sum. */
function histogram(samples: Map<string, number>, name: string) {
  const buckets = [...samples]
    .filter(([key]) => key.startsWith(`${name}_bucket{`))
    .map(([key, value]) => ({ le: key, value }));
  return { buckets, count: samples.get(`${name}_count`), sum: samples.get(`${name}_sum`) ?? Number.NaN };
}

function expectWellFormed(histogramOf: ReturnType<typeof histogram>): void {
  const values = histogramOf.buckets.map((bucket) => bucket.value);
  expect(values.length).toBeGreaterThan(5);
  // Cumulative buckets, ending in +Inf = count.
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]!);
  expect(histogramOf.buckets.at(-1)!.le).toContain('le="+Inf"');
  expect(values.at(-1)).toBe(histogramOf.count);
}

describe('GET /metrics', () => {
  it('counts attempts by outcome and error class, times attempts, claims and flushes, and reports the queue and circuits', async () => {
    const appId = await createApp(db.pool, 'Tleilax');
    const ok = await startReceiver(answer(200, 'ok'));
    const failing = await startReceiver(answer(500, 'no'));
    let held: ServerResponse | null = null;
    const hanging = await startReceiver((_request, response) => {
      held = response;
    });
    receivers.push(ok, failing, hanging);
    const refusedPort = await freePort(); // nothing listens there
    for (const name of ['axlotl.ok', 'axlotl.failing', 'axlotl.refused', 'axlotl.hanging', 'axlotl.parked']) {
      await createEventType(db.pool, appId, name);
    }
    await createEndpoint(db.pool, appId, ok.url, { eventTypes: ['axlotl.ok'] });
    await createEndpoint(db.pool, appId, failing.url, { eventTypes: ['axlotl.failing'] });
    await createEndpoint(db.pool, appId, `http://127.0.0.1:${refusedPort}/`, { eventTypes: ['axlotl.refused'] });
    await createEndpoint(db.pool, appId, hanging.url, { eventTypes: ['axlotl.hanging'] });
    // The queue as the first sample will find it, on an endpoint whose circuit is open and whose rows
    // are not due: 2 pending, 4 retries scheduled, 1 leased to another worker, 3 dead.
    const parked = await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['axlotl.parked'] });
    await db.pool.query(
      `UPDATE hookline.endpoints SET circuit_state = 'open', circuit_open_until = now() + interval '1 hour' WHERE id = $1`,
      [parked.id],
    );
    await db.pool.query(
      `WITH message AS (
         INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'axlotl.parked', '{}', NULL) RETURNING id
       )
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
                                        claimable_at, last_error_class, lease_owner, lease_expires_at)
       SELECT hookline.new_uuid(message.id), $1, message.id, $2, 'axlotl.parked', state, attempt_count, now() + interval '1 hour',
              CASE WHEN state <> 'dead' THEN now() + interval '1 hour' END,
              CASE WHEN attempt_count > 0 THEN 'http_5xx' END, lease_owner, lease_expires_at
         FROM message, (VALUES ('pending', 0, NULL, NULL), ('pending', 0, NULL, NULL),
                               ('pending', 1, NULL, NULL), ('pending', 2, NULL, NULL), ('pending', 3, NULL, NULL), ('pending', 1, NULL, NULL),
                               ('delivering', 0, 'worker-elsewhere', now() + interval '1 hour'),
                               ('dead', 8, NULL, NULL), ('dead', 8, NULL, NULL), ('dead', 8, NULL, NULL))
                        AS preset(state, attempt_count, lease_owner, lease_expires_at)`,
      [appId, parked.id],
    );

    const port = await freePort();
    const worker = spawnWorker(db.url, {
      HOOKLINE_METRICS_PORT: String(port),
      // A failed first attempt waits an hour: failures stay 'scheduled', never 'dead', during the test.
      HOOKLINE_RETRY_SCHEDULE: '0,1h',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '20000',
      HOOKLINE_LEASE_SECONDS: '60',
    });
    workers.push(worker);
    // Its first maintenance (a second after start) samples the queue before any event is sent.
    await waitUntil(() => countRows(db.pool, 'queue_depth_samples'), {
      timeoutMs: 20_000,
      what: 'the first queue sample',
    });

    const send = (eventType: string, count: number) =>
      db.pool.query(`SELECT hookline.send($1, $2, jsonb_build_object('n', n)) FROM generate_series(1, $3::int) AS n`, [
        appId,
        eventType,
        count,
      ]);
    await send('axlotl.ok', 5);
    await send('axlotl.failing', 3);
    await send('axlotl.refused', 2);
    await send('axlotl.hanging', 1);
    await waitUntil(() => held !== null, { what: 'the hanging request' });
    // The 5 failures have attempt rows; the 5 successes are on their deliveries.
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'attempts')) === 5 &&
        (await countRows(db.pool, 'deliveries', `state = 'succeeded'`)) === 5,
      { what: 'the 10 finished attempts' },
    );
    // Recorded in the database means flushed, so counted in the worker too.
    const { text, samples } = await scrapeMetrics(port);

    // Every family documented and typed.
    for (const family of [
      'hookline_attempts_total',
      'hookline_deliveries_finished_total',
      'hookline_queue_depth',
      'hookline_endpoint_circuits',
      'hookline_in_flight',
      'hookline_time_partitions_past_retention',
      'hookline_attempt_duration_seconds',
      'hookline_claim_duration_seconds',
      'hookline_flush_duration_seconds',
    ]) {
      expect(text).toMatch(new RegExp(`^# HELP ${family} \\S`, 'm'));
      expect(text).toMatch(new RegExp(`^# TYPE ${family} (counter|gauge|histogram)$`, 'm'));
    }

    // Attempts by outcome and error class, as the attempts table has them.
    expect(samples.get('hookline_attempts_total{outcome="succeeded",error_class=""}')).toBe(5);
    expect(samples.get('hookline_attempts_total{outcome="failed",error_class="http_5xx"}')).toBe(3);
    expect(samples.get('hookline_attempts_total{outcome="failed",error_class="connect_refused"}')).toBe(2);
    expect(samples.get('hookline_deliveries_finished_total{state="succeeded"}')).toBe(5);
    expect(samples.get('hookline_deliveries_finished_total{state="dead"}') ?? 0).toBe(0);

    // The latency histogram holds those 10 attempts, and its sum is theirs.
    const attempts = histogram(samples, 'hookline_attempt_duration_seconds');
    expectWellFormed(attempts);
    expect(attempts.count).toBe(10);
    // Failures' durations are in their attempt rows, successes' on their deliveries.
    const { rows } = await db.pool.query<{ seconds: number }>(
      `SELECT ((SELECT sum(duration_ms) FROM hookline.attempts)
               + (SELECT sum(last_duration_ms) FROM hookline.deliveries WHERE state = 'succeeded')) / 1000 AS seconds`,
    );
    expect(attempts.sum).toBeCloseTo(rows[0]!.seconds, 6);
    expect(attempts.sum).toBeGreaterThan(0);

    // Claims and flushes timed: at least one each, each well under a second on loopback.
    for (const name of ['hookline_claim_duration_seconds', 'hookline_flush_duration_seconds']) {
      const statement = histogram(samples, name);
      expectWellFormed(statement);
      expect(statement.count).toBeGreaterThanOrEqual(1);
      expect(statement.sum).toBeGreaterThan(0);
      expect(statement.sum / statement.count!).toBeLessThan(1);
    }

    // The queue as sampled, and the circuits: the parked endpoint open, the 4 others closed.
    expect(samples.get('hookline_queue_depth{state="pending"}')).toBe(2);
    expect(samples.get('hookline_queue_depth{state="scheduled"}')).toBe(4);
    expect(samples.get('hookline_queue_depth{state="delivering"}')).toBe(1);
    expect(samples.get('hookline_queue_depth{state="dead"}')).toBe(3);
    expect(samples.get('hookline_endpoint_circuits{state="open"}')).toBe(1);
    expect(samples.get('hookline_endpoint_circuits{state="closed"}')).toBe(4);
    expect(samples.get('hookline_endpoint_circuits{state="half_open"}')).toBe(0);
    // Nothing here is older than the retention (README: a number above 0 for long means a stuck period).
    expect(samples.get('hookline_time_partitions_past_retention')).toBe(0);

    // One request still in flight: the hanging one.
    expect(samples.get('hookline_in_flight')).toBe(1);
    expect(samples.get('hookline_held_deliveries')).toBe(1);
    held!.writeHead(200).end('late');
    const after = await waitUntil(
      async () => {
        const scraped = (await scrapeMetrics(port)).samples;
        return scraped.get('hookline_deliveries_finished_total{state="succeeded"}') === 6 ? scraped : null;
      },
      { what: 'the hanging delivery to finish' },
    );
    expect(after.get('hookline_in_flight')).toBe(0);
    expect(after.get('hookline_attempt_duration_seconds_count')).toBe(11);
    expect(after.get('hookline_attempts_total{outcome="succeeded",error_class=""}')).toBe(6);
  }, 60_000);
});
