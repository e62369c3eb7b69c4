// The flush's cost follows its batch, not the backlog, on every supported PostgreSQL. Seen on
// PostgreSQL 15 before write path v2: with statistics taken while no delivery was 'delivering', the
// planner updated a flush's deliveries through a nested loop over every 'delivering' row (an index on
// state looked free), and 500 results took 2,757 ms behind a 20,000-row backlog instead of 21 ms.
// This sets that trap (ANALYZE with nothing in flight, then 20,000 leased rows) and runs the real
// statements under EXPLAIN ANALYZE. Run it against PostgreSQL 15 with DATABASE_URL set to check the
// older planner too.
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { BY_KEY_SETTINGS, RECORD_BY_KEY_SETTINGS, TAKE_SETTINGS } from '../../worker/worker-connections';
import { statements } from '../../worker/statements';
import { noneUnwritten } from '../../worker/leases';
import { fanOutOnce, readFanOutCursor } from '../../worker/fan-out';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { nodesOf, type PlanNode } from '../support/plans';

let db: TestDatabase;
let appId: string;
let endpointId: string;
const WORKER = 'worker-with-a-backlog';

// Readable fixture ids (32 hex digits, which PostgreSQL reads as a uuid). Each begins with 12 hex
// digits of a time far past any clock's (from FAR_AHEAD, beyond the year 10,000), so the fixtures
// sort after every id a clock makes, in the overflow partition; and a delivery's begin with its
// message's, as the partitions' same-time check requires.
const FAR_AHEAD = `f${'0'.repeat(31)}`;
/** The one message of the backlog, 'Giedi Prime'. */
const GIEDI_PRIME = `f0000000000a${'0'.repeat(20)}`;
/** Its deliveries: 'd0' history (done), 'f1' in flight, then their number. */
const GIEDI_PRIME_DONE = `${GIEDI_PRIME.slice(0, 12)}d0`;
const GIEDI_PRIME_IN_FLIGHT = `${GIEDI_PRIME.slice(0, 12)}f1`;
const inFlightId = (n: number) => `${GIEDI_PRIME_IN_FLIGHT}${String(n).padStart(18, '0')}`;
/** The n-th message waiting for its fan-out (queueMessages): 'f1' and n, in a millisecond of its own. */
const QUEUED = 'f1';
const queuedId = (n: number) => `${QUEUED}${String(n).padStart(10, '0')}${'0'.repeat(20)}`;
/** Deliveries of the first queued message made here: its 12 digits, a kind ('a1' later, 'e1' retry), a number. */
const QUEUED_1_LATER = `${queuedId(1).slice(0, 12)}a1`;
const QUEUED_1_RETRY = `${queuedId(1).slice(0, 12)}e1`;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool, 'Giedi Prime');
  await createEventType(db.pool, appId, 'harkonnen.raid');
  endpointId = (await createEndpoint(db.pool, appId, 'http://127.0.0.1:9/')).id;
  const messageId = GIEDI_PRIME;
  await db.pool.query(
    `INSERT INTO hookline.messages (id, app_id, event_type, payload) VALUES ($1, $2, 'harkonnen.raid', '{}')`,
    [messageId, appId],
  );
  // History first, and statistics taken while nothing is in flight...
  await db.pool.query(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count)
     SELECT ($4 || lpad(n::text, 18, '0'))::uuid, $1, $2, $3, 'harkonnen.raid', 'succeeded', 1
       FROM generate_series(1, 20000) AS n`,
    [appId, messageId, endpointId, GIEDI_PRIME_DONE],
  );
  await db.pool.query('ANALYZE hookline.deliveries');
  // ...then a backlog of 20,000 deliveries leased to this worker, which the statistics never saw.
  await leaseBacklog(db.pool, appId, messageId, endpointId, 'harkonnen.raid');
});

/**
 * 20,000 deliveries of the Giedi Prime message (inFlightId(1) ...) leased to WORKER for another
 * minute.
 */
async function leaseBacklog(pool: pg.Pool, app: string, messageId: string, endpoint: string, eventType: string) {
  await pool.query(
    `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, lease_owner,
                                      lease_expires_at, next_attempt_at, claimable_at)
     SELECT ($6 || lpad(n::text, 18, '0'))::uuid, $1, $2, $3, $4, 'delivering', $5,
            now() + interval '1 minute', now() + interval '1 minute', now() + interval '1 minute'
       FROM generate_series(1, 20000) AS n`,
    [app, messageId, endpoint, eventType, WORKER, GIEDI_PRIME_IN_FLIGHT],
  );
}

/** A parameter as PostgreSQL's text input reads it (arrays as '{...}' with each element quoted). */
function asText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const element = (item: unknown) => (item === null ? 'NULL' : `"${asText(item).replace(/["\\]/g, '\\$&')}"`);
    return `{${value.map(element).join(',')}}`;
  }
  return String(value);
}

/** A statement's parameters as the SQL arguments of EXECUTE (which takes no bound parameters). */
function executeArgs(client: pg.PoolClient, params: unknown[]): string {
  return params.map((param) => (param === null ? 'NULL' : client.escapeLiteral(asText(param)))).join(', ');
}

/**
 * EXPLAIN ANALYZE of a statement run as the worker runs it: prepared (worker/statements.ts), with the
 * worker's connection settings (the recording connection's make it a generic plan, the others a
 * custom one), in a transaction that is rolled back.
 */
async function explain(statement: string, params: unknown[], settings: Record<string, string> = {}): Promise<PlanNode> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    for (const [name, value] of Object.entries(settings)) await client.query(`SET LOCAL ${name} = ${value}`);
    await client.query(`PREPARE hot_statement AS\n${statement}`);
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE hot_statement${params.length > 0 ? `(${executeArgs(client, params)})` : ''}`,
    );
    if (settings.plan_cache_mode === 'force_generic_plan') {
      const { rows: counts } = await client.query<{ generic_plans: string }>(
        `SELECT generic_plans FROM pg_prepared_statements WHERE name = 'hot_statement'`,
      );
      expect(Number(counts[0]!.generic_plans)).toBeGreaterThan(0);
    }
    return rows[0]!['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('ROLLBACK');
    await client.query('DEALLOCATE ALL');
    client.release();
  }
}

/** The first `count` of the 20,000 in-flight deliveries' ids. */
const inFlight = (count: number) => Array.from({ length: count }, (_, index) => inFlightId(index + 1));

/** record-results.sql's parameters for a success of each delivery, recorded by WORKER. */
function successes(ids: string[]): unknown[] {
  const now = new Date();
  return statements.recordResults.values({
    workerId: WORKER,
    deliveryIds: ids,
    states: ids.map(() => 'succeeded'),
    nextAttemptAts: ids.map(() => null),
    startedAts: ids.map(() => now),
    durationsMs: ids.map(() => 3.5),
    statusCodes: ids.map(() => 200),
    errorClasses: ids.map(() => null),
    errorMessages: ids.map(() => null),
    requestHeaders: ids.map(() => '{}'),
    responseHeaders: ids.map(() => null),
    responseBodies: ids.map(() => 'ok'),
    responsesTruncated: ids.map(() => false),
    circuitFailureThreshold: 10,
    circuitOpenBaseMs: 30_000,
    circuitOpenMaxMs: 1_800_000,
    autoDisableAfterMs: 0,
    keepSuccessfulAttempts: false,
    settledBatchIds: [],
    rollupShard: 0,
    attemptCounts: ids.map(() => 0),
    ...noneUnwritten(ids),
  });
}

/** The table a relation of a plan belongs to: a time partition (deliveries_overflow, ...) is its table's. */
const tableOf = (relation: string) => relation.replace(/_(p\d{8}t\d{4}|before_\d{8}t\d{4}|overflow)$/, '');

/** An index by what it is: every partition's share of the primary key is the primary key. */
const indexKind = (index: string | undefined) => (index && /_pkey(_before_|$)/.test(index) ? 'pkey' : index);

/**
 * Every read of the deliveries table in a plan that ran, summed over its time partitions:
 * [node type, index, rows it produced in all loops].
 */
function deliveriesReads(plan: PlanNode): [string, string | undefined, number][] {
  const reads = new Map<string, [string, string | undefined, number]>();
  for (const node of nodesOf(plan)) {
    if (!node['Relation Name'] || tableOf(node['Relation Name']) !== 'deliveries') continue;
    if (node['Node Type'] === 'ModifyTable' || !node['Actual Loops']) continue;
    const key = `${node['Node Type']} ${indexKind(node['Index Name'])}`;
    const read = reads.get(key) ?? [node['Node Type'], indexKind(node['Index Name']), 0];
    read[2] += (node['Actual Rows'] ?? 0) * node['Actual Loops'];
    reads.set(key, read);
  }
  return [...reads.values()];
}

/** Rows each relation gave the plan, over all loops, and how it was read. */
function reads(plan: PlanNode): { relation: string; node: string; rows: number }[] {
  return nodesOf(plan)
    .filter((node) => node['Relation Name'] && node['Node Type'] !== 'ModifyTable')
    .map((node) => ({
      relation: tableOf(node['Relation Name']!),
      node: node['Node Type'],
      rows: (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) + (node['Rows Removed by Filter'] ?? 0),
    }));
}

/** 20,000 messages waiting for their fan-out, written by producer transactions of `perTransaction`. */
async function queueMessages(pool: pg.Pool, app: string, eventType: string, perTransaction = 50) {
  for (let from = 1; from <= 20_000; from += perTransaction) {
    await pool.query(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload)
       SELECT ($5 || lpad(n::text, 10, '0') || repeat('0', 20))::uuid, $1, $3, '{}'
         FROM generate_series($2::int, $2::int + $4 - 1) AS n`,
      [app, from, eventType, perTransaction, QUEUED],
    );
  }
}

describe('recording 500 results behind a 20,000-row backlog', () => {
  it('finds each result by primary key, and reads no other delivery', async () => {
    const plan = await explain(statements.recordResults.text, successes(inFlight(500)), RECORD_BY_KEY_SETTINGS);
    const reads = deliveriesReads(plan);
    expect(reads.map(([type, index]) => [type, index])).toEqual([['Index Scan', 'pkey']]);
    // 500 rows looked up, 500 found: nothing of the other 19,500 in flight, nor of the history.
    expect(reads[0]![2]).toBe(500);
    // And no step reads the batch once per result: joining the updated rows back to the batch was a
    // nested loop over two CTEs, 250,000 rows for 500 results (41 ms of the flush on 18, 37 on 15;
    // 13 ms without it).
    const cteRows = nodesOf(plan)
      .filter((node) => node['Node Type'] === 'CTE Scan')
      .map((node) => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));
    expect(Math.max(...cteRows)).toBeLessThanOrEqual(500);
  });

  it("writes 500 first attempts' rows looking for each by primary key, and reads no other delivery", async () => {
    // First attempts leased by a fan-out have no row until their outcome (migration
    // 20261206090000_first_attempts_written_once): the flush looks each one's id up, finds none, and
    // inserts it, under its batch's row.
    const client = await db.pool.connect();
    try {
      const { rows: batch } = await client.query<{ id: string }>(
        `INSERT INTO hookline.fanout_batches (after, through, lease_owner, lease_expires_at, endpoint_ids)
         VALUES (pg_current_snapshot(), pg_current_snapshot(), $1, now() + interval '1 minute', ARRAY[$2])
         RETURNING id::text`,
        [WORKER, endpointId],
      );
      // In this minute's partition, beside 5,000 rows written since its statistics were taken (none):
      // where the anti join's plan read the whole primary key for each result. Ids of one message of
      // now (a delivery's id carries its message's time: the partitions' _same_time check).
      const { rows: message } = await client.query<{ id: string }>(`SELECT hookline.new_uuid() AS id`);
      const messageId = message[0]!.id;
      await client.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count)
         SELECT hookline.new_uuid($3::uuid), $1, $3, $2, 'harkonnen.raid', 'succeeded', 1
           FROM generate_series(1, 5000)`,
        [appId, endpointId, messageId],
      );
      const { rows: fresh } = await client.query<{ id: string }>(
        `SELECT hookline.new_uuid($1::uuid) AS id FROM generate_series(1, 500)`,
        [messageId],
      );
      const ids = fresh.map((row) => row.id);
      const params = successes(ids);
      const unwritten = {
        batchIds: ids.map(() => batch[0]!.id),
        appIds: ids.map(() => appId),
        endpointIds: ids.map(() => endpointId),
        messageIds: ids.map(() => messageId),
        eventTypes: ids.map(() => 'harkonnen.raid'),
        createdAts: ids.map(() => new Date()),
      };
      const names = statements.recordResults.names;
      for (const [name, values] of Object.entries(unwritten)) params[names.indexOf(name as never)] = values;
      const plan = await explain(statements.recordResults.text, params, RECORD_BY_KEY_SETTINGS);
      const reads = deliveriesReads(plan);
      // The only read of deliveries: whether each id has a row yet, in the primary key alone, none found,
      // so nothing of the 45,000 rows stored is read.
      expect(reads.map(([type, index]) => [type, index])).toEqual([['Index Only Scan', 'pkey']]);
      expect(reads[0]![2]).toBe(0);
      // Each probe names the id: as an anti join (NOT EXISTS), the plan kept for the connection walked a
      // young partition's whole primary key once per result (10 ms for a flush of 44 on PostgreSQL 15).
      const probes = nodesOf(plan).filter(
        (node) =>
          node['Relation Name'] &&
          tableOf(node['Relation Name']) === 'deliveries' &&
          node['Node Type'] !== 'ModifyTable' &&
          node['Actual Loops'],
      );
      for (const probe of probes) expect(probe['Index Cond'], probe['Relation Name']).toMatch(/\(id = /);
      expect(Math.max(...probes.map((probe) => probe['Actual Loops']!))).toBe(500);
      const cteRows = nodesOf(plan)
        .filter((node) => node['Node Type'] === 'CTE Scan')
        .map((node) => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));
      expect(Math.max(...cteRows)).toBeLessThanOrEqual(1000);
    } finally {
      await client.query('DELETE FROM hookline.fanout_batches');
      // This test's rows: the ids of now, where every fixture's is FAR_AHEAD or after.
      await client.query(`DELETE FROM hookline.deliveries WHERE id < $1`, [FAR_AHEAD]);
      client.release();
    }
  });

  it('gives deliveries back by primary key too', async () => {
    const ids = Array.from({ length: 100 }, (_, index) => inFlightId(index + 1001));
    const plan = await explain(
      statements.releaseDeliveries.text,
      statements.releaseDeliveries.values({
        workerId: WORKER,
        deliveryIds: ids,
        dueAts: ids.map(() => new Date()),
        settledBatchIds: [],
        ...noneUnwritten(ids),
      }),
      BY_KEY_SETTINGS,
    );
    const reads = deliveriesReads(plan);
    expect(reads.map(([type, index]) => [type, index])).toEqual([['Index Scan', 'pkey']]);
    expect(reads[0]![2]).toBe(100);
  });

  it('leaves a healthy endpoint row alone when its last success is under a second old, so workers do not queue on it', async () => {
    const record = (id: string) => db.pool.query(statements.recordResults.text, successes([id]));
    const version = async () =>
      (
        await db.pool.query<{ xmin: string; last_success_at: Date | null }>(
          'SELECT xmin::text, last_success_at FROM hookline.endpoints WHERE id = $1',
          [endpointId],
        )
      ).rows[0]!;
    await record(inFlightId(19001));
    const first = await version();
    expect(first.last_success_at).not.toBeNull();
    await record(inFlightId(19002));
    expect(await version()).toEqual(first);
    await db.pool.query(`UPDATE hookline.endpoints SET last_success_at = now() - interval '2 seconds' WHERE id = $1`, [
      endpointId,
    ]);
    const aged = await version();
    await record(inFlightId(19003));
    expect((await version()).xmin).not.toBe(aged.xmin);
  });
});

// The worker's other hot statements, behind the same backlog plus 20,000 messages waiting for their
// fan-out: each reads what its batch needs through a key, never the backlog. Checked on the embedded
// PostgreSQL 18 and, with DATABASE_URL, on 15 (the planner that fell into the trap above).
describe('taking work behind a backlog', () => {
  beforeAll(async () => {
    // Everything before is fanned out; then 20,000 messages waiting for their fan-out, written by 400
    // producer transactions of 50 (the fan-out takes 256 messages at a time, the last transaction in part).
    await db.pool.query(
      'UPDATE hookline.fanout_cursor SET fanned_out_through = pg_current_snapshot(), partial_xid = NULL, partial_through_id = NULL',
    );
    await queueMessages(db.pool, appId, 'harkonnen.raid');
    // Retries scheduled for later: the claim must not read them.
    await db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        next_attempt_at, claimable_at)
       SELECT ($4 || lpad(n::text, 18, '0'))::uuid, $1, $3, $2, 'harkonnen.raid', 'pending', 1,
              now() + interval '1 hour', now() + interval '1 hour'
         FROM generate_series(1, 20000) AS n`,
      [appId, endpointId, queuedId(1), QUEUED_1_LATER],
    );
    await db.pool.query('ANALYZE');
  });

  it('fans out 256 messages finding them through messages_written_by_idx', async () => {
    const plan = await explain(
      statements.fanOutMessages.text,
      statements.fanOutMessages.values({
        workerId: 'a-worker',
        messages: 256,
        room: 256,
        leaseSeconds: 10,
        ...(await readFanOutCursor(db.pool)),
      }),
      TAKE_SETTINGS,
    );
    const read = reads(plan);
    // The backlog's tables are read by key; the app's endpoints (a few rows) may well be scanned.
    const backlog = ['messages', 'deliveries'];
    // (An empty partition, the legacy one here, may be read whole: it has no pages.)
    expect(
      read.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && backlog.includes(r.relation)).map((r) => r.relation),
    ).toEqual([]);
    // The candidates come from the written_by index, in order, up to the limit: not every message.
    const byWrittenBy = nodesOf(plan).filter(
      (node) => node['Index Name']?.startsWith('messages_') && node['Index Name'].includes('written_by'),
    );
    expect(byWrittenBy.length).toBeGreaterThan(0);
    // No transaction is taken in part yet: the two branches that read one (fan-out-messages.sql) skip
    // every time partition when the call starts, so only the main branch sets up a scan of a period
    // through the index (at most one each: an empty one may be read whole instead).
    const { rows: periods } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM hookline.time_partitions('messages')`,
    );
    expect(byWrittenBy.length).toBeLessThanOrEqual(periods[0]!.n);
    // 256 messages taken (5 transactions of 50 and 6 of the next, taken in part), each read a few
    // times by key (candidates, the leased deliveries' payloads); never the 20,000.
    const messages = read.filter((r) => r.relation === 'messages');
    expect(messages.reduce((sum, r) => sum + r.rows, 0)).toBeLessThanOrEqual(4 * 257);
    const counts = await db.pool.query<{ taken: number }>(
      `SELECT count(*)::int AS taken FROM hookline.messages AS m, hookline.fanout_cursor AS c
        WHERE m.written_by IS NOT NULL AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through)`,
    );
    // EXPLAIN ANALYZE ran it in a transaction rolled back: all 20,000 still wait.
    expect(counts.rows[0]!.taken).toBe(20_000);
  });

  it('claims due deliveries through the claim index, reading none of the 20,000 scheduled for later', async () => {
    const plan = await explain(
      statements.claimDeliveries.text,
      // As many ids still being sent or recorded as a busy worker passes.
      statements.claimDeliveries.values({
        workerId: 'a-worker',
        limit: 256,
        leaseSeconds: 10,
        stillOursIds: inFlight(500),
      }),
      TAKE_SETTINGS,
    );
    const read = reads(plan).filter((r) => r.relation === 'deliveries');
    expect(read.filter((r) => r.node === 'Seq Scan' && r.rows > 0)).toEqual([]);
    // The in-flight backlog is claimable when its lease ends (in a minute), the retries in an hour:
    // nothing is due, and the claim reads nothing.
    expect(read.reduce((sum, r) => sum + r.rows, 0)).toBe(0);
  });

  it('renews 500 leases by primary key', async () => {
    const ids = Array.from({ length: 500 }, (_, index) => inFlightId(index + 1));
    const plan = await explain(
      statements.renewLeases.text,
      statements.renewLeases.values({ workerId: WORKER, deliveryIds: ids, leaseSeconds: 10, batchIds: [] }),
      BY_KEY_SETTINGS,
    );
    const read = deliveriesReads(plan);
    expect(read.map(([type, index]) => [type, index])).toEqual([['Index Scan', 'pkey']]);
    expect(read[0]![2]).toBe(500);
  });

  // Last: it fans out for real (the statements above ran in rolled-back transactions).
  it("finds an expired fan-out batch's messages through messages_written_by_idx", async () => {
    const rows = await fanOutOnce(db.pool, {
      workerId: 'a-dead-worker',
      messages: 256,
      room: 256,
      leaseSeconds: 10,
    });
    expect(rows[0]!.messages_taken).toBe(256);
    // The cursor is now inside the sixth transaction: the next fan-out resumes there by one probe of
    // messages_written_by_idx (written_by, id), reading none of the 256 taken nor the backlog beyond.
    const { rows: cursor } = await db.pool.query<{ partial_through_id: string | null }>(
      `SELECT replace(partial_through_id::text, '-', '') AS partial_through_id FROM hookline.fanout_cursor`,
    );
    expect(cursor[0]!.partial_through_id).toBe(queuedId(256));
    const next = await explain(
      statements.fanOutMessages.text,
      statements.fanOutMessages.values({
        workerId: 'a-worker',
        messages: 256,
        room: 256,
        leaseSeconds: 10,
        ...(await readFanOutCursor(db.pool)),
      }),
      TAKE_SETTINGS,
    );
    const nextReads = reads(next);
    expect(
      nextReads.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && r.relation === 'messages').map((r) => r.relation),
    ).toEqual([]);
    expect(
      nodesOf(next).some(
        (node) => node['Index Name']?.startsWith('messages_') && node['Index Name'].includes('written_by'),
      ),
    ).toBe(true);
    expect(nextReads.filter((r) => r.relation === 'messages').reduce((sum, r) => sum + r.rows, 0)).toBeLessThanOrEqual(
      4 * 257,
    );
    await db.pool.query(`UPDATE hookline.fanout_batches SET lease_expires_at = now() - interval '1 second'`);
    const plan = await explain(statements.releaseExpiredBatchLeases.text, [], BY_KEY_SETTINGS);
    const read = reads(plan);
    expect(read.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && r.relation === 'messages')).toEqual([]);
    expect(
      nodesOf(plan).some(
        (node) => node['Index Name']?.startsWith('messages_') && node['Index Name'].includes('written_by'),
      ),
    ).toBe(true);
    // The batch's 256 messages, not the 19,744 still waiting.
    const messages = read.filter((r) => r.relation === 'messages');
    expect(messages.reduce((sum, r) => sum + r.rows, 0)).toBeLessThanOrEqual(2 * 300);
    // And their deliveries through deliveries_pkey, each message's in its millisecond
    // (prisma/functions/deliveries-of-message.sql): the batch's 256, not the 20,000 in flight.
    const deliveries = read.filter((r) => r.relation === 'deliveries');
    expect(deliveries.reduce((sum, r) => sum + r.rows, 0)).toBeLessThanOrEqual(2 * 300);
    // Exactly its messages' first attempts go back to the claim queue: the 256, by their batch's bounds.
    const { rows: released } = await statements.releaseExpiredBatchLeases.run(db.pool, {});
    expect(released[0]).toEqual({ batches: 1, deliveries: 256 });
  });
});

/**
 * A database of its own with an app, an event type and an endpoint, for plans made before any backlog
 * exists. No autovacuum ANALYZE of messages or deliveries invalidates a plan behind the test's back (a
 * storage parameter of each partition: the partitioned tables have no storage).
 */
/**
 * The take connection's statements (worker/take-deliveries.ts) as a test runs them on `client`,
 * prepared as fan_out and claim: their arguments, and EXPLAIN ANALYZE of one in a rolled-back transaction.
 */
function takeStatementsOn(client: pg.PoolClient, pool: pg.Pool) {
  return {
    fanOutArgs: async () =>
      executeArgs(
        client,
        statements.fanOutMessages.values({
          workerId: 'a-worker',
          messages: 256,
          room: 256,
          leaseSeconds: 10,
          ...(await readFanOutCursor(pool)),
        }),
      ),
    claimArgs: executeArgs(
      client,
      statements.claimDeliveries.values({ workerId: 'a-worker', limit: 256, leaseSeconds: 10, stillOursIds: [] }),
    ),
    explainPlan: async (statement: string, args: string): Promise<PlanNode> => {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${statement}(${args})`,
        );
        return rows[0]!['QUERY PLAN'][0].Plan;
      } finally {
        await client.query('ROLLBACK');
      }
    },
  };
}

async function freshDatabase(appName: string, eventType: string) {
  const fresh = await createTestDatabase();
  const freshApp = await createApp(fresh.pool, appName);
  await createEventType(fresh.pool, freshApp, eventType);
  const freshEndpoint = (await createEndpoint(fresh.pool, freshApp, 'http://127.0.0.1:9/')).id;
  await fresh.pool.query(`DO $$ DECLARE p regclass; BEGIN
    FOR p IN SELECT relid FROM pg_partition_tree('hookline.messages') WHERE isleaf
             UNION ALL SELECT relid FROM pg_partition_tree('hookline.deliveries') WHERE isleaf LOOP
      EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', p);
    END LOOP; END $$`);
  return { fresh, freshApp, freshEndpoint };
}

describe('the recording plan, made once per connection', () => {
  it('still finds each result by primary key when it was made while deliveries was empty', async () => {
    // A fresh database: the worker's first flush may well come before any backlog exists.
    const { fresh, freshApp, freshEndpoint } = await freshDatabase('Caladan', 'atreides.muster');
    const client = await fresh.pool.connect();
    try {
      for (const [name, value] of Object.entries(RECORD_BY_KEY_SETTINGS)) await client.query(`SET ${name} = ${value}`);
      await client.query(`PREPARE hot_statement AS\n${statements.recordResults.text}`);
      // The first flush, an empty one: its generic plan is made now, on an empty table...
      await client.query(`EXECUTE hot_statement(${executeArgs(client, successes([]))})`);
      // ...and then 20,000 deliveries are in flight.
      const messageId = GIEDI_PRIME;
      await fresh.pool.query(
        `INSERT INTO hookline.messages (id, app_id, event_type, payload) VALUES ($1, $2, 'atreides.muster', '{}')`,
        [messageId, freshApp],
      );
      await leaseBacklog(fresh.pool, freshApp, messageId, freshEndpoint, 'atreides.muster');
      await client.query('BEGIN');
      const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE hot_statement(${executeArgs(client, successes(inFlight(500)))})`,
      );
      await client.query('ROLLBACK');
      const { rows: counts } = await client.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'hot_statement'`,
      );
      // The plan made on the empty table is the one that ran...
      expect(Number(counts[0]!.generic_plans)).toBe(2);
      expect(Number(counts[0]!.custom_plans)).toBe(0);
      // ...and it reads the 500 results by key, none of the other 19,500.
      const reads = deliveriesReads(explained.rows[0]!['QUERY PLAN'][0].Plan);
      expect(reads.map(([type, index]) => [type, index])).toEqual([['Index Scan', 'pkey']]);
      expect(reads[0]![2]).toBe(500);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  });

  it("keeps the claim's and the fan-out's plans reading by index behind a backlog, made on an empty database or on the backlog", async () => {
    // The connection that takes work plans each statement once (TAKE_SETTINGS), maybe on its first
    // call to an empty database, maybe after an ANALYZE of a backlog. Here 20,000 messages wait in two
    // transactions of 10,000, the first taken in part by a fan-out; 20,000 retries are scheduled for
    // later beside ~550 due ones. (When the fan-out read the cursor through STABLE functions rather
    // than parameters, its generic plan sorted the second transaction's range: all 10,000 read to take
    // 256, PostgreSQL 18.)
    const { fresh, freshApp, freshEndpoint } = await freshDatabase('Ix', 'ix.navigator');
    const client = await fresh.pool.connect();
    const { fanOutArgs, claimArgs, explainPlan } = takeStatementsOn(client, fresh.pool);
    const explained = async (statement: string, args: string) => reads(await explainPlan(statement, args));
    const backlog = ['messages', 'deliveries'];
    const expectReadByIndex = async (when: string) => {
      const fanOut = await explained('fan_out', await fanOutArgs());
      const claim = await explained('claim', claimArgs);
      // The fan-out read its 256 (and the one after) in order, not a transaction of 10,000...
      expect(
        fanOut.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && backlog.includes(r.relation)),
        when,
      ).toEqual([]);
      expect(
        fanOut.filter((r) => r.relation === 'messages').reduce((sum, r) => sum + r.rows, 0),
        when,
      ).toBeLessThanOrEqual(4 * 257);
      // ...and the claim took 256 of the due ones through the claim index, none of the 20,000 retries.
      expect(
        claim.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && backlog.includes(r.relation)),
        when,
      ).toEqual([]);
      expect(
        claim.filter((r) => r.relation === 'deliveries').reduce((sum, r) => sum + r.rows, 0),
        when,
      ).toBeLessThanOrEqual(3 * 256);
    };
    try {
      for (const [name, value] of Object.entries(TAKE_SETTINGS)) await client.query(`SET ${name} = ${value}`);
      await client.query(`PREPARE fan_out AS\n${statements.fanOutMessages.text}`);
      await client.query(`PREPARE claim AS\n${statements.claimDeliveries.text}`);
      await client.query(`EXECUTE fan_out(${await fanOutArgs()})`);
      await client.query(`EXECUTE claim(${claimArgs})`);

      await queueMessages(fresh.pool, freshApp, 'ix.navigator', 10_000);
      await fanOutOnce(fresh.pool, { workerId: 'a-worker', messages: 256, room: 0, leaseSeconds: 10 });
      await fresh.pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                          next_attempt_at, claimable_at)
         SELECT ($4 || lpad(n::text, 18, '0'))::uuid, $1, $3, $2, 'ix.navigator',
                'pending', 1, t, t
           FROM generate_series(1, 20300) AS n,
                LATERAL (SELECT CASE WHEN n <= 300 THEN now() - interval '1 second' ELSE now() + interval '1 hour' END AS t) AS due`,
        [freshApp, freshEndpoint, queuedId(1), QUEUED_1_RETRY],
      );

      await expectReadByIndex('planned on an empty database');
      await fresh.pool.query('ANALYZE hookline.messages; ANALYZE hookline.deliveries');
      await expectReadByIndex('planned on the backlog');
      const { rows: counts } = await client.query<{ name: string; generic_plans: string; custom_plans: string }>(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name`,
      );
      expect(counts.map((row) => [row.name, Number(row.custom_plans)])).toEqual([
        ['claim', 0],
        ['fan_out', 0],
      ]);
    } finally {
      await client.query('DEALLOCATE ALL').catch(() => {});
      client.release();
    }
  }, 60_000);

  it('keeps the claim and the fan-out on their indexes when the periods were analysed while empty and then filled', async () => {
    // An ANALYZE of the whole database (a DBA's, or `vacuumdb --analyze-only` after pg_upgrade) finds
    // the periods ahead empty and records them so: priced at no rows, a claim planned then read a
    // period by sequential scan, and once the period filled, every claim read all of its finished
    // deliveries (none of them claimable) to find the few due: 17 ms a claim, a 100k drain at
    // 3,100-3,800/s instead of 6,900-7,900 (PostgreSQL 18, until autovacuum analysed the period again).
    const { fresh, freshApp, freshEndpoint } = await freshDatabase('Tleilax', 'tleilax.face');
    const client = await fresh.pool.connect();
    const { fanOutArgs, claimArgs, explainPlan: explained } = takeStatementsOn(client, fresh.pool);
    const backlog = ['messages', 'deliveries'];
    const expectByIndex = (plan: PlanNode, limit: number) => {
      const read = reads(plan);
      expect(read.filter((r) => r.node === 'Seq Scan' && r.rows > 0 && backlog.includes(r.relation))).toEqual([]);
      for (const table of backlog) {
        expect(
          read.filter((r) => r.relation === table).reduce((sum, r) => sum + r.rows, 0),
          table,
        ).toBeLessThanOrEqual(3 * limit);
      }
    };
    try {
      await fresh.pool.query('ANALYZE');
      for (const [name, value] of Object.entries(TAKE_SETTINGS)) await client.query(`SET ${name} = ${value}`);
      await client.query(`PREPARE claim AS\n${statements.claimDeliveries.text}`);
      await client.query(`PREPARE fan_out AS\n${statements.fanOutMessages.text}`);
      await client.query(`EXECUTE claim(${claimArgs})`);
      await client.query(`EXECUTE fan_out(${await fanOutArgs()})`);
      // 20,300 messages in this period's partition, each delivered but the first 300, which are due.
      await fresh.pool.query(
        `WITH written AS (
           INSERT INTO hookline.messages (app_id, event_type, payload)
           SELECT $1, 'tleilax.face', '{}' FROM generate_series(1, 20300)
           RETURNING id
         )
         INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                          next_attempt_at, claimable_at, last_attempt_at)
         SELECT hookline.delivery_id(w.id, $2), $1, w.id, $2, 'tleilax.face',
                CASE WHEN w.nth <= 300 THEN 'pending' ELSE 'succeeded' END, 1, now(),
                CASE WHEN w.nth <= 300 THEN now() - interval '1 second' END, now()
           FROM (SELECT id, row_number() OVER (ORDER BY id) AS nth FROM written) AS w`,
        [freshApp, freshEndpoint],
      );
      // The claim took 256 of the 300 due, each joined to its message, reading them, not the 20,000
      // finished, through the indexes...
      const claim = await explained('claim', claimArgs);
      expect(claim['Actual Rows']).toBe(256);
      expectByIndex(claim, 256);
      // ...and the fan-out, whose cursor has seen none of these messages, took 256 of them in order.
      const fanOut = await explained('fan_out', await fanOutArgs());
      expectByIndex(fanOut, 257);
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      await client.query('DEALLOCATE ALL').catch(() => {});
      client.release();
    }
  }, 60_000);
});
