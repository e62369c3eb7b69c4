// Time partitions (worker/time-partitions.ts, migration 20261126130000_time_partitions), against a real
// PostgreSQL: what the migration leaves, the overflow turned into a period, periods made ahead of a
// moved clock, retention dropping whole periods and keeping one with a delivery still to send, and a
// drop cut short between its steps finished the way retention would have.
import { beforeAll, describe, expect, it } from 'vitest';
import { countPeriodsPastRetention } from '../../worker/maintenance';
import { maintainTimePartitions, periodForRetention } from '../../worker/time-partitions';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { resetTimePartitions } from '../support/time-partitions';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { skipFanOut } from '../support/deliveries';
import { fanOutOnce } from '../../worker/fan-out';
import { migrate } from '../../lib/database/migrate';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let db: TestDatabase;
let appId: string;
let endpointId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await resetTimePartitions(db.pool);
  appId = await createApp(db.pool, 'Caladan');
  await createEventType(db.pool, appId, 'spice.harvested');
  endpointId = (await createEndpoint(db.pool, appId, 'https://example.com/partitions')).id;
});

interface Partition {
  partition_name: string;
  lower_at: Date | null;
  upper_at: Date | null;
}

async function partitionsOf(table: string): Promise<Partition[]> {
  const { rows } = await db.pool.query<Partition>(
    'SELECT partition_name, lower_at, upper_at FROM hookline.time_partitions($1)',
    [table],
  );
  return rows;
}

/** Where a row is: the partition PostgreSQL routed it to. `id`: its public id or its uuid. */
async function partitionOf(table: string, id: string): Promise<string> {
  const { rows } = await db.pool.query<{ name: string }>(
    `SELECT tableoid::regclass::text AS name FROM hookline.${table} WHERE id = hookline.uuid_of($1)`,
    [id],
  );
  return rows[0]!.name.replace(/^hookline\./, '');
}

/**
 * A message at `at` (its id says so, as hookline.new_uuid would at that moment), one delivery per state
 * given, each with one failed attempt, and an idempotency key. Fanned out already (written_by NULL),
 * unless `waitsForFanOut`: then written by this insert's transaction, as a producer's.
 */
async function eventAt(
  at: Date,
  states: ('succeeded' | 'dead' | 'pending')[],
  key: string,
  { waitsForFanOut = false }: { waitsForFanOut?: boolean } = {},
) {
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH message AS (
       INSERT INTO hookline.messages (id, app_id, event_type, payload, idempotency_key, written_by)
       VALUES (hookline.new_uuid(hookline.id_at('', $2)::uuid), $1, 'spice.harvested', '{}', $3,
               CASE WHEN $4 THEN pg_current_xact_id() END)
       RETURNING id
     ), key AS (
       INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id) SELECT $1, $3, id FROM message
     )
     SELECT id FROM message`,
    [appId, at, key, waitsForFanOut],
  );
  const messageId = rows[0]!.id;
  const deliveryIds: string[] = [];
  for (const state of states) {
    const { rows: delivery } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        claimable_at, last_error_class)
       VALUES (hookline.new_uuid($2::uuid), $1, $2, $3, 'spice.harvested', $4, 1,
               CASE WHEN $4 = 'pending' THEN now() + interval '1 hour' END, CASE WHEN $4 = 'dead' THEN 'http_5xx' END)
       RETURNING id`,
      [appId, messageId, endpointId, state],
    );
    const deliveryId = delivery[0]!.id;
    deliveryIds.push(deliveryId);
    await db.pool.query(
      `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                      started_at, duration_ms, status_code, error_class)
       VALUES (hookline.new_id('atmpt', $2::uuid), $1, $2, $3, $4, 1, 'w', now(), 3.5, 500, 'http_5xx')`,
      [appId, deliveryId, messageId, endpointId],
    );
  }
  return { messageId, deliveryIds };
}

/**
 * CHECK constraints on attached partitions that restate bounds (anything local but <partition>_same_time):
 * every insert would pay to evaluate them (prisma/functions/time-partitions.sql).
 */
async function boundChecksOnAttachedPartitions(): Promise<string[]> {
  const { rows } = await db.pool.query<{ name: string }>(
    `SELECT c.relname || '.' || k.conname || ': ' || pg_get_constraintdef(k.oid) AS name
       FROM pg_inherits AS i
       JOIN pg_class AS c ON c.oid = i.inhrelid
       JOIN pg_constraint AS k ON k.conrelid = c.oid AND k.contype = 'c'
      WHERE i.inhparent IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass, 'hookline.attempts'::regclass)
        AND k.conislocal AND k.conname <> c.relname || '_same_time'
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

/** The bounds of one period's partition of `table`, as times. */
async function boundsOfPeriod(table: string, period: string): Promise<[Date | null, Date | null]> {
  const partition = (await partitionsOf(table)).find((p) => p.partition_name === `${table}_${period}`)!;
  return [partition.lower_at, partition.upper_at];
}

/** Every table's partitions run without a gap from MINVALUE to MAXVALUE, and the three agree. */
async function expectContiguous(): Promise<void> {
  const shapes: string[][] = [];
  for (const table of ['messages', 'deliveries', 'attempts']) {
    const partitions = await partitionsOf(table);
    expect(partitions[0]!.lower_at).toBeNull();
    expect(partitions.at(-1)!.upper_at).toBeNull();
    for (let i = 1; i < partitions.length; i++) {
      expect(partitions[i]!.lower_at?.getTime()).toBe(partitions[i - 1]!.upper_at?.getTime());
    }
    shapes.push(partitions.map((p) => `${p.partition_name.slice(table.length)} ${p.lower_at?.toISOString()}`));
  }
  expect(shapes[1]).toEqual(shapes[0]);
  expect(shapes[2]).toEqual(shapes[0]);
}

describe('time partitions', () => {
  it('start as the legacy partition, one-minute periods for 15 minutes and an overflow to MAXVALUE', async () => {
    const partitions = await partitionsOf('messages');
    const names = partitions.map((p) => p.partition_name);
    expect(names[0]).toMatch(/^messages_before_\d{8}t\d{4}$/);
    expect(names.at(-1)).toBe('messages_overflow');
    // Up to 15 minutes from now, one minute each (the first may be longer: it starts where the legacy
    // partition ends, which may be longer ago than a minute).
    const periods = partitions.slice(1, -1);
    expect(periods.length).toBeGreaterThanOrEqual(13);
    for (const period of periods.slice(1)) {
      expect(period.upper_at!.getTime() - period.lower_at!.getTime()).toBe(MINUTE);
    }
    // Producers starting now write into periods: the worker's first maintenance has no overflow
    // holding rows to turn into a period.
    expect(partitions.at(-1)!.lower_at!.getTime()).toBeGreaterThan(Date.now() + 13 * MINUTE);
    await expectContiguous();
    expect(await boundChecksOnAttachedPartitions()).toEqual([]);
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"n": 1}') AS id`,
      [appId],
    );
    expect(await partitionOf('messages', rows[0]!.id)).toMatch(/^messages_(before_|p)/);
    // Fanned out to nobody, as a worker would: nothing of this test holds a period later on.
    await skipFanOut(db.pool);
  });

  it('turn an overflow holding rows into a period, and keep every row', async () => {
    const before = await countRows(db.pool, 'messages');
    // A message a second into the overflow's range, as a producer writes when no maintenance ran.
    const overflowStart = (await partitionsOf('messages')).at(-1)!.lower_at!;
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, written_by)
       VALUES (hookline.new_uuid(hookline.id_at('', $2::timestamptz + interval '1 second')::uuid),
               $1, 'spice.harvested', '{"n": 2}', NULL)
       RETURNING id`,
      [appId, overflowStart],
    );
    // Ten minutes on (the clock moved), the overflow is less than the 10 minutes ahead it must be.
    const later = Date.now() + 10 * MINUTE;
    const result = await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => later });
    expect(result?.overflowTaken).toBe(true);
    expect(result?.created).toHaveLength(1);
    expect(await countRows(db.pool, 'messages')).toBe(before + 1);
    expect(await partitionOf('messages', rows[0]!.id)).toBe(`messages_${result!.created[0]}`);
    // The new overflow starts at least 10 minutes ahead, and is empty.
    const overflow = (await partitionsOf('messages')).at(-1)!;
    expect(overflow.partition_name).toBe('messages_overflow');
    expect(overflow.lower_at!.getTime()).toBeGreaterThanOrEqual(later + 10 * MINUTE);
    expect(await countRows(db.pool, 'messages_overflow')).toBe(0);
    await expectContiguous();
    // Attached without a scan thanks to a CHECK on its bounds, which went once it was attached.
    expect(await boundChecksOnAttachedPartitions()).toEqual([]);
  });

  it('make periods ahead of the clock without touching the overflow’s rows (it has none)', async () => {
    // Fifteen minutes on, the overflow (about 21 minutes ahead now) is still in the future: it is
    // empty, and detached without a lock that would hold producers back.
    const later = Date.now() + 15 * MINUTE;
    const result = await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => later });
    expect(result?.overflowTaken).toBe(false);
    expect(result?.created.length).toBeGreaterThanOrEqual(3);
    const overflow = (await partitionsOf('messages')).at(-1)!;
    expect(overflow.lower_at!.getTime()).toBeGreaterThanOrEqual(later + 10 * MINUTE);
    // One minute each, on the minute.
    const periods = (await partitionsOf('messages')).filter((p) => p.partition_name.startsWith('messages_p'));
    const last = periods.at(-1)!;
    expect(last.upper_at!.getTime() - last.lower_at!.getTime()).toBe(MINUTE);
    expect(last.lower_at!.getTime() % MINUTE).toBe(0);
    await expectContiguous();
  });

  it('finish the empty overflows’ replacement cut short between the tables, with no gap in any', async () => {
    // The overflows a few minutes ahead of the database's clock (within the 15 minutes a table left
    // without one is given one-minute periods for): the periods after now + 5 min go, and the
    // overflow starts there.
    const oldStart = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 5 * MINUTE);
    for (const table of ['messages', 'deliveries', 'attempts']) {
      for (const partition of await partitionsOf(table)) {
        if (partition.upper_at !== null && partition.upper_at.getTime() <= oldStart.getTime()) continue;
        await db.pool.query(`ALTER TABLE hookline.${table} DETACH PARTITION hookline.${partition.partition_name}`);
        await db.pool.query(`DROP TABLE hookline.${partition.partition_name}`);
      }
      await db.pool.query('SELECT hookline.add_time_partition($1, $2, NULL)', [table, oldStart]);
    }
    await expectContiguous();
    // The maintenance replaces the three empty overflows one at a time (DETACH ... CONCURRENTLY, which
    // no transaction can hold together). Cut short after the messages' was dropped and the
    // deliveries' detached but not yet dropped, the attempts' untouched:
    await db.pool.query('ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_overflow');
    await db.pool.query('DROP TABLE hookline.messages_overflow');
    await db.pool.query('ALTER TABLE hookline.deliveries DETACH PARTITION hookline.deliveries_overflow');
    // The next run: every id has a partition in all three tables again, ten minutes ahead.
    const now = Date.now();
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => now });
    await expectContiguous();
    expect((await partitionsOf('messages')).at(-1)!.lower_at!.getTime()).toBeGreaterThanOrEqual(now + 10 * MINUTE);
    // A delivery and its attempt of the minute the old overflows started at: it was the gap.
    const { deliveryIds } = await eventAt(new Date(oldStart.getTime() + 1000), ['succeeded'], 'cut-short-overflow');
    expect(await partitionOf('deliveries', deliveryIds[0]!)).toMatch(/^deliveries_p/);
  });

  it('let the next start go on after an overflow was detached and not dropped, and refuse one holding rows', async () => {
    // The maintenance replaces an empty overflow with DETACH ... CONCURRENTLY, then DROP. At 100 M
    // deliveries the detach waited 34 s behind a long statement, past the connection's 5 s timeout:
    // it finished in the server, the DROP never came, and every start after failed in its migration
    // step (relation "messages_overflow" already exists) until a maintenance ran.
    await db.pool.query('ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_overflow');
    const start = await migrate(db.url);
    expect(start.applied).toEqual([]);
    await expectContiguous();
    expect((await partitionsOf('messages')).at(-1)!.upper_at).toBeNull();

    // One holding rows was detached by hand: it names the table and changes nothing.
    await db.pool.query('ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_overflow');
    await db.pool.query(
      `INSERT INTO hookline.messages_overflow (app_id, event_type, payload) VALUES ($1, 'spice.harvested', '{}')`,
      [appId],
    );
    await expect(migrate(db.url)).rejects.toThrow(
      'hookline.messages_overflow is detached but holds rows; attach it back by hand before maintenance can go on',
    );
    // Emptied, it goes at the next start like any other.
    await db.pool.query('DELETE FROM hookline.messages_overflow');
    await migrate(db.url);
    await expectContiguous();
  });

  it('give deliveries and attempts back a period of the messages they lack', async () => {
    // What a maintenance cut short between the overflows left before they were kept aligned: a
    // period of the messages with no partition in deliveries and attempts.
    const period = (await partitionsOf('messages')).filter((p) => p.partition_name.startsWith('messages_p')).at(-2)!;
    const name = period.partition_name.replace('messages_', '');
    for (const table of ['deliveries', 'attempts']) {
      await db.pool.query(`ALTER TABLE hookline.${table} DETACH PARTITION hookline.${table}_${name}`);
      await db.pool.query(`DROP TABLE hookline.${table}_${name}`);
    }
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => Date.now() });
    await expectContiguous();
    const { deliveryIds } = await eventAt(new Date(period.lower_at!.getTime() + 1000), ['succeeded'], 'gap-filled');
    expect(await partitionOf('deliveries', deliveryIds[0]!)).toBe(`deliveries_${name}`);
  });

  it('hold a delivery and its attempts to the time of its message', async () => {
    const { messageId, deliveryIds } = await eventAt(new Date(Date.now() + 3 * MINUTE), ['succeeded'], 'k-same-time');
    const period = (await partitionOf('messages', messageId)).replace('messages_', '');
    expect(await partitionOf('deliveries', deliveryIds[0]!)).toBe(`deliveries_${period}`);
    // A delivery with an id of another time is refused by its partition.
    await expect(
      db.pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state)
         VALUES (hookline.new_uuid(hookline.id_at('', now() + interval '8 minutes')::uuid),
                 $1, $2, $3, 'spice.harvested', 'succeeded')`,
        [appId, messageId, endpointId],
      ),
    ).rejects.toThrow(/_same_time/);
  });

  it('drop a finished period whole, with its idempotency keys, and keep one with a delivery still to send', async () => {
    const finished = await eventAt(new Date(Date.now() + 6 * MINUTE), ['succeeded', 'dead'], 'k-finished');
    const waiting = await eventAt(new Date(Date.now() + 12 * MINUTE), ['succeeded', 'pending'], 'k-waiting');
    const finishedPeriod = (await partitionOf('messages', finished.messageId)).replace('messages_', '');
    const waitingPeriod = (await partitionOf('messages', waiting.messageId)).replace('messages_', '');
    const legacy = (await partitionsOf('messages'))[0]!.partition_name.replace('messages_', '');

    // Two hours on, with a retention of one: both periods ended more than the retention ago.
    const later = Date.now() + 2 * HOUR;
    const result = await maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => later });
    expect(result?.dropped).toContain(finishedPeriod);
    expect(result?.dropped).toContain(legacy);
    expect(result?.held).toEqual([waitingPeriod]);
    // The operator sees it: one period past retention, in every worker's metrics.
    expect(await countPeriodsPastRetention(db.pool, HOUR, new Date(later))).toBe(1);
    for (const table of ['messages', 'deliveries', 'attempts']) {
      const { rows } = await db.pool.query(`SELECT to_regclass($1) AS gone`, [`hookline.${table}_${finishedPeriod}`]);
      expect(rows[0]!.gone).toBeNull();
    }
    expect(await countRows(db.pool, 'messages', 'id = $1', [finished.messageId])).toBe(0);
    expect(await countRows(db.pool, 'idempotency_keys', 'message_id = $1', [finished.messageId])).toBe(0);
    // The held period is all there: the message, both deliveries, their attempts, the key.
    expect(await countRows(db.pool, 'deliveries', 'message_id = $1', [waiting.messageId])).toBe(2);
    expect(await countRows(db.pool, 'attempts', 'message_id = $1', [waiting.messageId])).toBe(2);
    expect(await countRows(db.pool, 'idempotency_keys', 'message_id = $1', [waiting.messageId])).toBe(1);

    // Once its last delivery finishes, the next run lets it go.
    await db.pool.query(`UPDATE hookline.deliveries SET state = 'succeeded', claimable_at = NULL WHERE id = $1`, [
      waiting.deliveryIds[1],
    ]);
    const next = await maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => later });
    expect(next?.dropped).toEqual([waitingPeriod]);
    expect(await countPeriodsPastRetention(db.pool, HOUR, new Date(later))).toBe(0);
    await expectOverflowLast();
    expect(await countRows(db.pool, 'messages', 'id = $1', [waiting.messageId])).toBe(0);
  });

  it('keep a period whose message waits for its fan-out, then while a fan-out batch holds its first attempt', async () => {
    await skipFanOut(db.pool);
    // After the periods the test above dropped, before those the one below makes.
    const at = Date.now() + 2 * HOUR + 5 * MINUTE;
    const waiting = await eventAt(new Date(at), [], 'k-unfanned', { waitsForFanOut: true });
    const period = (await partitionOf('messages', waiting.messageId)).replace('messages_', '');
    const later = at + HOUR + 10 * MINUTE;
    const maintain = () => maintainTimePartitions(db.pool, { retentionMs: HOUR, periodMs: MINUTE, now: () => later });
    expect((await maintain())?.held).toContain(period);

    // Fanned out, its first attempt leased to a worker under a batch: still held.
    const rows = await fanOutOnce(db.pool, {
      workerId: 'a-worker',
      messages: 10,
      room: 10,
      leaseSeconds: 60,
    });
    expect(rows.map((row) => row.message_id)).toEqual([waiting.messageId]);
    expect((await maintain())?.held).toContain(period);

    // Recorded, its batch row deleted: the period goes.
    await db.pool.query(
      `UPDATE hookline.deliveries SET state = 'succeeded', lease_owner = NULL, lease_expires_at = NULL WHERE id = $1`,
      [rows[0]!.id],
    );
    await db.pool.query('DELETE FROM hookline.fanout_batches WHERE id = $1', [rows[0]!.batch_id]);
    expect((await maintain())?.dropped).toContain(period);
  });

  it('finish a drop cut short between its steps: attached back while a delivery waits, dropped once none does', async () => {
    const at = new Date(Date.now() + 3 * HOUR);
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => at.getTime() });
    const event = await eventAt(at, ['pending'], 'k-cut-short');
    const period = (await partitionOf('messages', event.messageId)).replace('messages_', '');
    const boundsBefore = await boundsOfPeriod('deliveries', period);
    // The drop stopped after detaching the deliveries' partition (say the worker was killed), as it
    // detaches: CONCURRENTLY, which leaves a CHECK stating the period's bounds on the table.
    await db.pool.query(`ALTER TABLE hookline.deliveries DETACH PARTITION hookline.deliveries_${period} CONCURRENTLY`);

    const result = await maintainTimePartitions(db.pool, {
      retentionMs: null,
      periodMs: MINUTE,
      now: () => at.getTime(),
    });
    expect(result?.held).toEqual([period]);
    expect(await partitionOf('deliveries', event.deliveryIds[0]!)).toBe(`deliveries_${period}`);
    expect(await countRows(db.pool, 'messages', 'id = $1', [event.messageId])).toBe(1);
    // All three attached back with the bounds the period had, read from that CHECK, and without it.
    for (const table of ['messages', 'deliveries', 'attempts']) {
      expect(await boundsOfPeriod(table, period)).toEqual(boundsBefore);
    }
    expect(await boundChecksOnAttachedPartitions()).toEqual([]);

    await db.pool.query(
      `UPDATE hookline.deliveries SET state = 'dead', claimable_at = NULL, last_error_class = 'http_5xx' WHERE id = $1`,
      [event.deliveryIds[0]],
    );
    await db.pool.query(`ALTER TABLE hookline.deliveries DETACH PARTITION hookline.deliveries_${period} CONCURRENTLY`);
    const again = await maintainTimePartitions(db.pool, {
      retentionMs: null,
      periodMs: MINUTE,
      now: () => at.getTime(),
    });
    expect(again?.dropped).toEqual([period]);
    expect(await countRows(db.pool, 'messages', 'id = $1', [event.messageId])).toBe(0);
  });

  it('finish a drop cut short after the messages’ partition alone was detached', async () => {
    const at = new Date(Date.now() + 3 * HOUR + 30 * MINUTE);
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => at.getTime() });
    const event = await eventAt(at, ['pending'], 'k-messages-only');
    const period = (await partitionOf('messages', event.messageId)).replace('messages_', '');
    const boundsBefore = await boundsOfPeriod('messages', period);
    // Retention detaches the messages' partition first; the worker died before the deliveries'.
    await db.pool.query(`ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_${period} CONCURRENTLY`);
    expect(await countRows(db.pool, 'messages', 'id = $1', [event.messageId])).toBe(0);

    const result = await maintainTimePartitions(db.pool, {
      retentionMs: null,
      periodMs: MINUTE,
      now: () => at.getTime(),
    });
    expect(result?.held).toEqual([period]);
    expect(await countRows(db.pool, 'messages', 'id = $1', [event.messageId])).toBe(1);
    expect(await boundsOfPeriod('messages', period)).toEqual(boundsBefore);
    expect(await boundChecksOnAttachedPartitions()).toEqual([]);

    // Its delivery finished, the same cut leads to the whole period dropped.
    await db.pool.query(`UPDATE hookline.deliveries SET state = 'succeeded', claimable_at = NULL WHERE id = $1`, [
      event.deliveryIds[0],
    ]);
    await db.pool.query(`ALTER TABLE hookline.messages DETACH PARTITION hookline.messages_${period} CONCURRENTLY`);
    const again = await maintainTimePartitions(db.pool, {
      retentionMs: null,
      periodMs: MINUTE,
      now: () => at.getTime(),
    });
    expect(again?.dropped).toEqual([period]);
    expect(await countRows(db.pool, 'deliveries', 'id = $1', [event.deliveryIds[0]])).toBe(0);
  });

  it('refuse to guess the bounds of a period detached by hand without CONCURRENTLY, and say what to do', async () => {
    const at = new Date(Date.now() + 4 * HOUR);
    await maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => at.getTime() });
    const event = await eventAt(at, ['pending'], 'k-by-hand');
    const period = (await partitionOf('messages', event.messageId)).replace('messages_', '');
    // A plain DETACH leaves no CHECK: nothing on the table says where its period ends.
    await db.pool.query(`ALTER TABLE hookline.deliveries DETACH PARTITION hookline.deliveries_${period}`);
    await expect(
      maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => at.getTime() }),
    ).rejects.toThrow(new RegExp(`deliveries_${period} is detached and no CHECK constraint .* attach it back by hand`));
    // Nothing was lost meanwhile; attached back by hand, as the error says, maintenance goes on.
    const { rows } = await db.pool.query<{ lower: string; upper: string }>(
      `SELECT hookline.id_at('', p.lower_at) AS lower, hookline.id_at('', p.upper_at) AS upper
         FROM hookline.time_partitions('messages') AS p WHERE p.partition_name = $1`,
      [`messages_${period}`],
    );
    await db.pool.query(
      `ALTER TABLE hookline.deliveries ATTACH PARTITION hookline.deliveries_${period}
         FOR VALUES FROM ('${rows[0]!.lower}') TO ('${rows[0]!.upper}')`,
    );
    expect(await countRows(db.pool, 'deliveries', 'id = $1', [event.deliveryIds[0]])).toBe(1);
    await expect(
      maintainTimePartitions(db.pool, { retentionMs: null, periodMs: MINUTE, now: () => at.getTime() }),
    ).resolves.not.toBeNull();
  });
});

/**
 * After drops: no legacy partition left, the overflow still last. (Periods are no longer contiguous:
 * a finished period after a held one goes, and nothing writes ids of a time that long gone.)
 */
async function expectOverflowLast(): Promise<void> {
  for (const table of ['messages', 'deliveries', 'attempts']) {
    const partitions = await partitionsOf(table);
    expect(partitions.at(-1)!.partition_name).toBe(`${table}_overflow`);
    expect(partitions.filter((p) => p.lower_at === null)).toEqual([]);
  }
}

describe('the period for a retention', () => {
  it('is the longest of the usual lengths that fits six times', () => {
    expect(periodForRetention(10 * MINUTE)).toBe(MINUTE);
    expect(periodForRetention(HOUR)).toBe(5 * MINUTE);
    expect(periodForRetention(24 * HOUR)).toBe(HOUR);
    expect(periodForRetention(7 * 24 * HOUR)).toBe(24 * HOUR);
    expect(periodForRetention(null)).toBe(24 * HOUR);
    expect(periodForRetention(1_000)).toBe(MINUTE);
  });
});
