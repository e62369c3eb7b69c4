// Keeping the tables healthy: a real worker process with HOOKLINE_RETENTION removes finished
// deliveries (and their attempts) older than the retention, and messages nothing refers to any more,
// and never anything still to be delivered; and the claim stays a read of the partial claim index
// however many finished rows the table holds.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../worker/maintenance';
import { sql } from '../../worker/statements';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType, type EndpointFixture } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { killAll, spawnWorker, waitForLog, type WorkerProcess } from '../support/worker-process';

let db: TestDatabase;
let appId: string;
const workers: WorkerProcess[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Salusa Secundus');
  await createEventType(db.pool, appId, 'sardaukar.drilled');
});

afterEach(async () => {
  await killAll(workers.splice(0));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

interface PresetDelivery {
  state: 'pending' | 'delivering' | 'succeeded' | 'dead' | 'cancelled';
  attempts: number;
  /** Postgres intervals before now(). */
  createdAgo: string;
  updatedAgo: string;
  /** Unfinished rows are due an hour from now, so the worker leaves them alone. */
  leasedTo?: string;
}

/** A message created `ago` and its deliveries with their attempts, as the worker would have left them. */
async function preset(endpoint: EndpointFixture, label: string, ago: string, deliveries: PresetDelivery[]) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (app_id, event_type, payload, created_at)
     VALUES ($1, 'sardaukar.drilled', jsonb_build_object('label', $2::text), now() - $3::interval) RETURNING id`,
    [appId, label, ago],
  );
  const messageId = rows[0]!.id;
  const deliveryIds: string[] = [];
  for (const delivery of deliveries) {
    const inserted = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries
              (app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at, claimable_at,
               last_error_class, lease_owner, lease_expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'sardaukar.drilled', $4, $5, now() + interval '1 hour',
               CASE WHEN $4 IN ('pending', 'delivering') THEN now() + interval '1 hour' END,
               CASE WHEN $4 = 'dead' THEN 'http_5xx' END, $6,
               CASE WHEN $6::text IS NULL THEN NULL ELSE now() + interval '1 hour' END, now() - $7::interval, now() - $8::interval)
       RETURNING id`,
      [
        appId,
        messageId,
        endpoint.id,
        delivery.state,
        delivery.attempts,
        delivery.leasedTo ?? null,
        delivery.createdAgo,
        delivery.updatedAgo,
      ],
    );
    const deliveryId = inserted.rows[0]!.id;
    deliveryIds.push(deliveryId);
    await db.pool.query(
      `INSERT INTO hookline.attempts (app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at, duration_ms, status_code, error_class)
       SELECT $1, $2, $3, $4, n, 'worker-long-gone', now() - $5::interval, 12.5, 500, 'http_5xx' FROM generate_series(1, $6::int) AS n`,
      [appId, deliveryId, messageId, endpoint.id, delivery.updatedAgo, delivery.attempts],
    );
  }
  return { messageId, deliveryIds };
}

describe('retention', () => {
  it('removes finished deliveries, their attempts and orphaned messages past the retention, and nothing else', async () => {
    const receiver = await startReceiver(answer(200, 'ok'));
    receivers.push(receiver);
    const endpoint = await createEndpoint(db.pool, appId, receiver.url);
    const old = '2 days';
    const finishedLongAgo = (state: 'succeeded' | 'dead' | 'cancelled', attempts: number): PresetDelivery => ({
      state,
      attempts,
      createdAgo: old,
      updatedAgo: old,
    });
    // Past the retention (1 day below): finished two days ago, with their attempts.
    const expired = [
      await preset(endpoint, 'succeeded long ago', old, [finishedLongAgo('succeeded', 1)]),
      await preset(endpoint, 'dead long ago', old, [finishedLongAgo('dead', 3)]),
      await preset(endpoint, 'cancelled long ago', old, [finishedLongAgo('cancelled', 0)]),
    ];
    const unmatchedLongAgo = await preset(endpoint, 'no endpoint matched, long ago', old, []);
    // Old, but not finished, or finished recently: all of it stays.
    const kept = [
      await preset(endpoint, 'retry scheduled', old, [
        { state: 'pending', attempts: 2, createdAgo: old, updatedAgo: old },
      ]),
      await preset(endpoint, 'never tried yet', old, [
        { state: 'pending', attempts: 0, createdAgo: old, updatedAgo: old },
      ]),
      await preset(endpoint, 'leased elsewhere', old, [
        { state: 'delivering', attempts: 1, createdAgo: old, updatedAgo: old, leasedTo: 'worker-elsewhere' },
      ]),
      await preset(endpoint, 'replayed and delivered an hour ago', old, [
        { state: 'succeeded', attempts: 2, createdAgo: old, updatedAgo: '1 hour' },
      ]),
      await preset(endpoint, 'unmatched, recent', '1 hour', []),
    ];
    // One message, two deliveries: the finished one goes, the message stays for the pending one.
    const mixed = await preset(endpoint, 'one finished, one pending', old, [
      finishedLongAgo('succeeded', 1),
      { state: 'pending', attempts: 1, createdAgo: old, updatedAgo: old },
    ]);
    // And events delivered while retention runs.
    await db.pool.query(
      `SELECT hookline.send($1, 'sardaukar.drilled', jsonb_build_object('n', n)) FROM generate_series(1, 20) AS n`,
      [appId],
    );
    const expiredDeliveries = [...expired.flatMap((message) => message.deliveryIds), mixed.deliveryIds[0]!];
    const keptDeliveries = [...kept.flatMap((message) => message.deliveryIds), mixed.deliveryIds[1]!];
    expect(await countRows(db.pool, 'attempts', 'delivery_id = ANY($1)', [expiredDeliveries])).toBe(5);
    const keptAttempts = await countRows(db.pool, 'attempts', 'delivery_id = ANY($1)', [keptDeliveries]);
    expect(keptAttempts).toBe(6);

    // Its 20 successes keep attempt rows, so the last check can tell them from the preset ones.
    const worker = spawnWorker(db.url, { HOOKLINE_RETENTION: '1d', HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS: 'true' });
    workers.push(worker);
    // The first maintenance runs a second after start.
    await waitForLog(worker, 'retention removed old rows', 20_000);
    await waitUntil(
      async () =>
        (await countRows(
          db.pool,
          'deliveries',
          `state = 'succeeded' AND attempt_count = 1 AND updated_at > now() - interval '1 minute'`,
        )) === 20,
      {
        what: 'the 20 live deliveries',
      },
    );

    expect(await countRows(db.pool, 'deliveries', 'id = ANY($1)', [expiredDeliveries])).toBe(0);
    expect(await countRows(db.pool, 'attempts', 'delivery_id = ANY($1)', [expiredDeliveries])).toBe(0);
    expect(
      await countRows(db.pool, 'messages', 'id = ANY($1)', [
        [...expired, unmatchedLongAgo].map((message) => message.messageId),
      ]),
    ).toBe(0);
    // Everything else is as it was.
    const { rows: left } = await db.pool.query<{ id: string; state: string; attempt_count: number }>(
      'SELECT id, state, attempt_count FROM hookline.deliveries WHERE id = ANY($1) ORDER BY id',
      [keptDeliveries],
    );
    expect(left.map((row) => row.id)).toEqual([...keptDeliveries].sort());
    expect(await countRows(db.pool, 'attempts', 'delivery_id = ANY($1)', [keptDeliveries])).toBe(keptAttempts);
    expect(
      await countRows(db.pool, 'messages', 'id = ANY($1)', [[...kept, mixed].map((message) => message.messageId)]),
    ).toBe(kept.length + 1);
    expect(await countRows(db.pool, 'deliveries')).toBe(keptDeliveries.length + 20);
    expect(await countRows(db.pool, 'attempts', `worker_id <> 'worker-long-gone'`)).toBe(20);
  }, 60_000);
});

describe('the claim with 200,000 finished rows', () => {
  interface PlanNode {
    'Node Type': string;
    'Relation Name'?: string;
    'Index Name'?: string;
    'Shared Hit Blocks'?: number;
    'Shared Read Blocks'?: number;
    'Rows Removed by Filter'?: number;
    'Subplan Name'?: string;
    'Actual Rows'?: number;
    Plans?: PlanNode[];
  }
  const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

  it('reads the partial claim index, not the finished rows', async () => {
    const endpoint = await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/', { eventTypes: ['sardaukar.history'] });
    // Ids given, not drawn by hookline.new_id(): a quarter of the insert's time (2.1 s instead of 2.8 s
    // per 50,000 rows), the rest is the 7 indexes.
    await db.pool.query(
      `WITH message AS (
         INSERT INTO hookline.messages (app_id, event_type, payload) VALUES ($1, 'sardaukar.history', '{}') RETURNING id
       )
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at,
                                        last_error_class, updated_at)
       SELECT 'dlv_history_' || n, $1, message.id, $2, 'sardaukar.history', (ARRAY['succeeded', 'dead', 'cancelled'])[1 + n % 3], 1,
              now() - interval '1 hour', CASE WHEN n % 3 = 1 THEN 'timeout' END, now() - make_interval(secs => n)
         FROM message, generate_series(1, 200000) AS n`,
      [appId, endpoint.id],
    );
    // And a live queue: 100 due, 100 not yet due.
    await db.pool.query(
      `INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, next_attempt_at, claimable_at)
       SELECT app_id, message_id, endpoint_id, event_type, now() + make_interval(secs => n - 100),
              now() + make_interval(secs => n - 100)
         FROM hookline.deliveries, generate_series(1, 200) AS n
        WHERE id = 'dlv_history_1'`,
    );
    await db.pool.query('ANALYZE hookline.deliveries');
    const { rows: size } = await db.pool.query<{ pages: number }>(
      `SELECT pg_relation_size('hookline.deliveries') / current_setting('block_size')::int AS pages`,
    );
    expect(size[0]!.pages).toBeGreaterThan(2000);

    const client = await db.pool.connect();
    try {
      // The real statement, run (EXPLAIN ANALYZE) inside a transaction that is rolled back.
      await client.query('BEGIN');
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)\n${sql.claimDeliveries}`,
        ['explain-worker', 64, 30],
      );
      // The `due` CTE is the search for claimable rows; the rest of the plan updates the 64 it found
      // (and their index entries), which costs the same with 200 or 200,000 finished rows.
      const due = nodesOf(rows[0]!['QUERY PLAN'][0].Plan).find((node) => node['Subplan Name'] === 'CTE due')!;
      const search = nodesOf(due);
      expect(due['Actual Rows']).toBe(64);
      expect(
        search
          .filter((node) => node['Relation Name'] === 'deliveries')
          .map((node) => [node['Node Type'], node['Index Name']]),
      ).toEqual([['Index Scan', 'deliveries_claim_idx']]);
      expect(search.reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0), 0)).toBe(0);
      // The 64 rows' heap pages and a few index pages (68 when measured), out of thousands.
      expect((due['Shared Hit Blocks'] ?? 0) + (due['Shared Read Blocks'] ?? 0)).toBeLessThan(200);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }, 60_000);
});

describe('retention pacing', () => {
  /** An endpoint of its own with `count` deliveries that finished three days ago; returns its id. */
  async function finishedThreeDaysAgo(url: string, count: number): Promise<string> {
    const endpoint = await createEndpoint(db.pool, appId, url);
    await db.pool.query(
      `WITH message AS (
         INSERT INTO hookline.messages (app_id, event_type, payload, created_at)
         VALUES ($1, 'sardaukar.drilled', '{}', now() - interval '3 days') RETURNING id
       )
       INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        created_at, updated_at)
       SELECT $1, message.id, $2, 'sardaukar.drilled', 'succeeded', 1, now() - interval '3 days', now() - interval '3 days'
         FROM message, generate_series(1, $3::int)`,
      [appId, endpoint.id, count],
    );
    return endpoint.id;
  }
  const DAY = { retentionMs: 86_400_000, statsRetentionMs: 86_400_000, batchSize: 10 };

  it('keeps deleting batch after batch until caught up, not a fixed number of batches per run', async () => {
    // 250 finished deliveries past the retention, in batches of 10: the old fixed 10 batches a run
    // left 150 of them for later runs, a minute apart.
    const endpointId = await finishedThreeDaysAgo('https://example.com/paced', 250);
    const result = await applyRetention(db.pool, DAY);
    expect(result?.deliveries).toBeGreaterThanOrEqual(250);
    expect(await countRows(db.pool, 'deliveries', 'endpoint_id = $1', [endpointId])).toBe(0);
  });

  it('stops at its time budget and leaves the rest for the next run', async () => {
    const endpointId = await finishedThreeDaysAgo('https://example.com/budget', 50);
    // A budget already spent: one batch, then the run ends.
    const result = await applyRetention(db.pool, { ...DAY, budgetMs: 0 });
    expect(result?.deliveries).toBe(10);
    expect(await countRows(db.pool, 'deliveries', 'endpoint_id = $1', [endpointId])).toBe(40);
  });
});
