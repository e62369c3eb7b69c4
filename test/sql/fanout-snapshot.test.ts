// The fan-out finds new messages by the transaction that wrote them (migration
// 20261130090000_fanout_by_transaction): hookline.fanout_cursor is a snapshot, and a message is fanned
// out exactly when its written_by is visible in it (prisma/functions/fanout-snapshot.sql). These
// tests hold that against real producer transactions on PostgreSQL: open ones that commit after later
// ones were fanned out, transactions larger than the fan-out's limit (taken in parts: the cursor's
// partial_xid), rolled-back ones, savepoints, a batch's lease running out inside a transaction taken in
// part, and fan-outs racing each other. "Fanned out" is read from the deliveries: one endpoint takes every
// message, so each committed message must end with exactly one delivery and each rolled-back one with
// none.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutOnce } from '../../worker/fan-out';
import { statements } from '../../worker/statements';
import { publicMessageId } from '../../lib/database/ids';
import { createPool, type Pool } from '../../lib/database/pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fanOutQueued, waitingForFanOut } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';

let db: TestDatabase;
// Room for five open producer transactions and three fan-outs at once (the test pool has 5).
let pool: Pool;
let appId: string;
const open: pg.PoolClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url, { max: 10 });
  appId = await createApp(db.pool, 'Arrakis');
  await createEventType(db.pool, appId, 'spice.harvested');
  await createEndpoint(db.pool, appId, 'https://example.com/all');
  await fanOutQueued(db.pool);
});

afterAll(async () => {
  for (const client of open) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
  await pool?.end();
});

async function producer(): Promise<pg.PoolClient> {
  const client = await pool.connect();
  open.push(client);
  await client.query('BEGIN');
  return client;
}

async function send(on: pg.PoolClient | pg.Pool, label: string, count = 1): Promise<string[]> {
  const { rows } = await on.query<{ id: string }>(
    `SELECT hookline.send($1, 'spice.harvested', jsonb_build_object('label', $2::text, 'i', i)) AS id
       FROM generate_series(1, $3::int) AS i`,
    [appId, label, count],
  );
  return rows.map((row) => row.id);
}

// The rows a fan-out returns name each message by its stored id (a uuid), as the worker's statement
// reads it.
const asPublicMessageId = (stored: string) => publicMessageId(stored);

/** One fan-out as a worker runs it, taking about `limit` messages, leasing none. */
async function fanOut(limit: number): Promise<{ taken: number; busy: boolean }> {
  const rows = await fanOutOnce(pool, {
    workerId: 'algebra',
    messages: limit,
    room: 0,
    leaseSeconds: 60,
  });
  return { taken: rows[0]?.messages_taken ?? 0, busy: rows[0]?.cursor_busy ?? false };
}

/** Deliveries per message, for the given messages (0 for one with none). */
async function deliveriesPer(ids: string[]): Promise<number[]> {
  const { rows } = await db.pool.query<{ id: string; n: number }>(
    `SELECT i.id, (SELECT count(*)::int FROM hookline.deliveries AS d WHERE d.message_id = hookline.uuid_of(i.id)) AS n
       FROM unnest($1::text[]) WITH ORDINALITY AS i(id, ord) ORDER BY i.ord`,
    [ids],
  );
  return rows.map((row) => row.n);
}

describe('hookline.fanout_snapshot', () => {
  // x is visible in the result exactly when (visible in current and x <= through) or visible in after.
  const exact = async (after: string, current: string, through: number) => {
    const { rows } = await db.pool.query<{ wrong: string[] }>(
      `WITH s AS (SELECT hookline.fanout_snapshot($1::pg_snapshot, $2::pg_snapshot, $3::text::xid8) AS r)
       SELECT coalesce(array_agg(x::text) FILTER (WHERE
                pg_visible_in_snapshot(x, s.r) <> ((pg_visible_in_snapshot(x, $2::pg_snapshot) AND x <= $3::text::xid8)
                                                   OR pg_visible_in_snapshot(x, $1::pg_snapshot))), '{}') AS wrong
         FROM s, generate_series(1, 80) AS g, LATERAL (SELECT g::text::xid8 AS x) AS v`,
      [after, current, String(through)],
    );
    return rows[0]!.wrong;
  };

  it.each([
    ['through below the old xmax', '10:20:12,15', '14:30:15,22,25', 16],
    ['through above the old xmax', '10:20:12,15', '14:30:15,22,25', 23],
    ['through at the current xmax - 1', '10:20:12,15', '14:30:15,22,25', 29],
    ['nothing running before', '20:20:', '20:40:25,33', 31],
    ['nothing running in either', '20:20:', '40:40:', 39],
  ])('is exactly the step it took: %s', async (_label, after, current, through) => {
    expect(await exact(after, current, through)).toEqual([]);
  });

  // fanout_snapshot_with(s, x): x visible too, for x at most xmax(s) (the partial bound).
  it.each([
    ['x in the xip', '10:20:12,15', 15, '12:20:12'],
    ['x the xmin', '10:20:12,15', 12, '15:20:15'],
    ['x the only running one', '12:20:12', 12, '20:20:'],
    ['x the xmax', '10:20:12,15', 20, '12:21:12,15'],
    ['x the xmax, nothing running', '20:20:', 20, '21:21:'],
    ['x visible already', '10:20:12,15', 13, '10:20:12,15'],
    ['no x', '10:20:12,15', null, '10:20:12,15'],
    // (xmin comes out as the lowest running id: the same visibility as the 10 given.)
  ])('adds one transaction to a snapshot: %s', async (_label, s, x, expected) => {
    const { rows } = await db.pool.query<{ r: string }>(
      'SELECT hookline.fanout_snapshot_with($1::pg_snapshot, $2::text::xid8)::text AS r',
      [s, x === null ? null : String(x)],
    );
    expect(rows[0]!.r).toBe(expected);
  });

  it('refuses a transaction above the xmax (the cursor would have to list every id between)', async () => {
    await expect(
      db.pool.query(`SELECT hookline.fanout_snapshot_with('10:20:12'::pg_snapshot, '25'::xid8)`),
    ).rejects.toThrow(/above the xmax/);
  });

  it('is exactly the step it took for 300 random cursors, snapshots and limits', async () => {
    let seed = 22;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 300; run++) {
      // after: xmin..xmax with some running; current: later, its running ones either still running
      // from after or begun since (what after saw finished stays finished).
      const xmaxA = 10 + random(30);
      const xipA = Array.from({ length: xmaxA - 5 }, (_, i) => 5 + i).filter(() => random(4) === 0);
      const xmaxC = xmaxA + random(30);
      const xipC = [
        ...xipA.filter(() => random(2) === 0),
        ...Array.from({ length: xmaxC - xmaxA }, (_, i) => xmaxA + i).filter(() => random(3) === 0),
      ];
      const snapshot = (xip: number[], xmax: number) => `${xip[0] ?? xmax}:${xmax}:${xip.join(',')}`;
      const after = snapshot(xipA, xmaxA);
      const current = snapshot(xipC, xmaxC);
      // through: a transaction new to the fan-out (visible in current, not in after).
      const candidates = Array.from({ length: xmaxC - 5 }, (_, i) => 5 + i).filter(
        (x) => !xipC.includes(x) && (xipA.includes(x) || x >= xmaxA),
      );
      if (candidates.length === 0) continue;
      const through = candidates[random(candidates.length)]!;
      expect(await exact(after, current, through), `${after} ${current} ${through}`).toEqual([]);
    }
  });
});

describe('the fan-out over producer transactions', () => {
  it('fans out every committed message exactly once, a big transaction in parts, and never a rolled-back one', async () => {
    // Begun before any fan-out, committed after several.
    const early = await producer();
    const earlyIds = await send(early, 'early', 2);

    // Savepoints: one released, one rolled back; the transaction commits.
    const saver = await producer();
    await saver.query('SAVEPOINT kept');
    const kept = await send(saver, 'kept');
    await saver.query('RELEASE SAVEPOINT kept');
    await saver.query('SAVEPOINT dropped');
    const dropped = await send(saver, 'dropped');
    await saver.query('ROLLBACK TO SAVEPOINT dropped');
    const after = await send(saver, 'after-savepoint');
    await saver.query('COMMIT');

    // Rolled back whole.
    const quitter = await producer();
    const rolledBack = await send(quitter, 'rolled-back', 4);
    await quitter.query('ROLLBACK');

    // One transaction of 7 messages, more than the limit of 3 below.
    const big = await producer();
    const bigIds = await send(big, 'big', 7);
    await big.query('COMMIT');

    const singles = [...(await send(db.pool, 'single-1')), ...(await send(db.pool, 'single-2'))];

    // Fan-outs of at most 3: the big transaction goes in parts, in id order, none twice.
    const committedSoFar = [...kept, ...after, ...bigIds, ...singles];
    const bigInIdOrder = (
      await db.pool.query<{ id: string }>(
        `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages
          WHERE id IN (SELECT hookline.uuid_of(unnest($1::text[]))) ORDER BY id`,
        [bigIds],
      )
    ).rows.map((row) => row.id);
    for (let turn = 0; turn < 10; turn++) {
      const { taken } = await fanOut(3);
      expect(taken).toBeLessThanOrEqual(3);
      const big = await deliveriesPer(bigInIdOrder);
      expect(big.join(''), `turn ${turn}`).toMatch(/^1*0*$/);
      expect((await deliveriesPer(committedSoFar)).every((n) => n <= 1)).toBe(true);
      if (taken === 0) break;
    }
    expect(await deliveriesPer(committedSoFar)).toEqual(committedSoFar.map(() => 1));
    // Still open: not fanned out, although later transactions were.
    expect(await deliveriesPer(earlyIds)).toEqual([0, 0]);
    expect(await deliveriesPer([...dropped, ...rolledBack])).toEqual([0, 0, 0, 0, 0]);

    // Another begins now and stays open; the early one commits.
    const late = await producer();
    const lateIds = await send(late, 'late');
    await early.query('COMMIT');
    const more = await send(db.pool, 'after-early');
    expect((await fanOut(100)).taken).toBe(3);
    expect(await deliveriesPer([...earlyIds, ...more])).toEqual([1, 1, 1]);
    expect(await deliveriesPer(lateIds)).toEqual([0]);
    await late.query('COMMIT');
    expect((await fanOut(100)).taken).toBe(1);
    expect((await fanOut(100)).taken).toBe(0);

    expect(await deliveriesPer([...committedSoFar, ...earlyIds, ...more, ...lateIds])).toEqual(
      [...committedSoFar, ...earlyIds, ...more, ...lateIds].map(() => 1),
    );
    expect(await deliveriesPer([...dropped, ...rolledBack])).toEqual([0, 0, 0, 0, 0]);
  });

  it('fans out each message once while producers and three fan-outs run at the same time', async () => {
    const committed: string[] = [];
    const rolledBack: string[] = [];
    let producing = true;
    const produce = async (name: string) => {
      for (let i = 0; i < 40; i++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const ids = await send(client, `${name}-${i}`, 1 + (i % 5));
          if (i % 7 === 3) {
            await client.query('ROLLBACK');
            rolledBack.push(...ids);
          } else {
            await client.query('COMMIT');
            committed.push(...ids);
          }
        } finally {
          client.release();
        }
      }
    };
    const fanOuts = async () => {
      while (producing) await fanOut(4);
    };
    const racing = [fanOuts(), fanOuts(), fanOuts()];
    await Promise.all([produce('a'), produce('b'), produce('c')]);
    producing = false;
    await Promise.all(racing);
    await fanOutQueued(db.pool);

    expect(committed.length).toBeGreaterThan(300);
    const per = await deliveriesPer(committed);
    expect(per.filter((n) => n !== 1)).toEqual([]);
    expect((await deliveriesPer(rolledBack)).filter((n) => n !== 0)).toEqual([]);
  });

  async function cursor(): Promise<{ through: string; partialXid: string | null; partialThroughId: string | null }> {
    const { rows } = await db.pool.query<{
      through: string;
      partialXid: string | null;
      partialThroughId: string | null;
    }>(
      `SELECT fanned_out_through::text AS through, partial_xid::text AS "partialXid",
              partial_through_id AS "partialThroughId" FROM hookline.fanout_cursor`,
    );
    return rows[0]!;
  }

  it('takes a transaction of more messages than the limit over several fan-outs, each at most the limit, every message once', async () => {
    await fanOutQueued(db.pool);
    // Begun before the big one (a lower transaction id), committed while it is taken in part.
    const earlier = await producer();
    await earlier.query('SELECT pg_current_xact_id()');
    const earlierIds = await send(earlier, 'earlier', 5);
    const before = await send(db.pool, 'before', 2);
    const big = await producer();
    const bigIds = await send(big, 'big', 23);
    // Begun after the big one, committed before it: fanned out first, whole.
    const middle = await producer();
    const middleIds = await send(middle, 'middle', 2);
    await middle.query('COMMIT');
    await big.query('COMMIT');
    const { rows: order } = await db.pool.query<{ id: string }>(
      `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages
        WHERE id IN (SELECT hookline.uuid_of(unnest($1::text[]))) ORDER BY id`,
      [bigIds],
    );
    const bigInIdOrder = order.map((row) => row.id);

    const limit = 4;
    const steps: { taken: number; partial: string | null; big: number }[] = [];
    const takenBig = async () => (await deliveriesPer(bigIds)).reduce((sum, n) => sum + n, 0);
    const during: string[] = [];
    for (let turn = 0; turn < 30; turn++) {
      const { taken } = await fanOut(limit);
      const state = await cursor();
      steps.push({ taken, partial: state.partialXid, big: await takenBig() });
      // At most the limit, never a message twice, and the big one taken as a prefix of its id order.
      expect(taken, `turn ${turn}`).toBeLessThanOrEqual(limit);
      const per = await deliveriesPer(bigInIdOrder);
      expect(per.join(''), `turn ${turn}`).toMatch(/^1*0*$/);
      expect(
        (await deliveriesPer([...earlierIds, ...before, ...middleIds, ...bigIds, ...during])).every((n) => n <= 1),
      ).toBe(true);
      if (turn === 2) {
        // While the big one is taken in part: the earlier one commits, and new ones come.
        expect(state.partialXid).not.toBeNull();
        await earlier.query('COMMIT');
        during.push(...(await send(db.pool, 'during-1', 3)));
        during.push(...(await send(db.pool, 'during-2')));
      }
      if (taken === 0) break;
    }
    const after = await send(db.pool, 'after', 2);
    expect((await fanOut(limit)).taken).toBe(2);
    expect((await fanOut(limit)).taken).toBe(0);

    const all = [...earlierIds, ...before, ...middleIds, ...bigIds, ...during, ...after];
    expect(await deliveriesPer(all)).toEqual(all.map(() => 1));
    // The big one was taken in parts: it was the cursor's partial transaction in some steps.
    expect(steps.filter((step) => step.partial !== null).length).toBeGreaterThanOrEqual(3);
    expect(steps.filter((step) => step.big > 0 && step.big < bigIds.length).length).toBeGreaterThanOrEqual(3);
    expect(await cursor()).toMatchObject({ partialXid: null, partialThroughId: null });
    expect(await waitingForFanOut(db.pool)).toBe(0);
  });

  it("releases exactly its own messages' first attempts when a batch expires inside a transaction taken in part", async () => {
    await fanOutQueued(db.pool);
    const bigIds = await send(db.pool, 'big-leased', 10);
    const small = await send(db.pool, 'small-leased', 1);
    // Three batches of 4, 4, 3 (the last takes the big one's rest and the small one), each leased whole
    // to its own worker.
    const batches: string[][] = [];
    for (const worker of ['first', 'second', 'third']) {
      const rows = await fanOutOnce(pool, {
        workerId: worker,
        messages: 4,
        room: 10,
        leaseSeconds: 60,
      });
      batches.push(rows.filter((row) => row.id !== null).map((row) => asPublicMessageId(row.message_id!)));
    }
    expect(batches.map((batch) => batch.length)).toEqual([4, 4, 3]);
    expect([...batches.flat()].sort()).toEqual([...bigIds, ...small].sort());
    const { rows: recorded } = await db.pool.query<{ after: string | null; through: string | null }>(
      `SELECT after_partial_id AS after, through_partial_id AS through FROM hookline.fanout_batches ORDER BY id`,
    );
    // The middle batch begins and ends inside the big transaction.
    expect(recorded[1]!.after).not.toBeNull();
    expect(recorded[1]!.through).not.toBeNull();

    // The middle one's lease runs out.
    await db.pool.query(
      `UPDATE hookline.fanout_batches SET lease_expires_at = now() - interval '1 second' WHERE lease_owner = 'second'`,
    );
    const { rows: released } = await statements.releaseExpiredBatchLeases.run(db.pool, {});
    expect(released[0]).toEqual({ batches: 1, deliveries: 4 });
    const { rows: states } = await db.pool.query<{
      message_id: string;
      state: string;
      lease_owner: string | null;
      claimable: boolean;
    }>(
      `SELECT hookline.public_id('msg', message_id) AS message_id, state, lease_owner, claimable_at IS NOT NULL AS claimable
         FROM hookline.deliveries WHERE message_id IN (SELECT hookline.uuid_of(unnest($1::text[]))) ORDER BY message_id`,
      [[...bigIds, ...small]],
    );
    const byMessage = new Map(states.map((row) => [row.message_id, row]));
    for (const id of batches[1]!)
      expect(byMessage.get(id)).toMatchObject({ state: 'pending', lease_owner: null, claimable: true });
    // What must not change: the other batches' first attempts stay leased to their workers, with no
    // rows yet (migration 20261206090000_first_attempts_written_once).
    const { rows: sending } = await db.pool.query<{ message_id: string; state: string; lease_owner: string }>(
      `SELECT hookline.public_id('msg', message_id) AS message_id, state, lease_owner FROM hookline.unfinished_deliveries
        WHERE message_id IN (SELECT hookline.uuid_of(unnest($1::text[])))`,
      [[...bigIds, ...small]],
    );
    const sendingByMessage = new Map(sending.map((row) => [row.message_id, row]));
    for (const [index, worker] of [
      [0, 'first'],
      [2, 'third'],
    ] as const) {
      for (const id of batches[index]!) {
        expect(byMessage.get(id)).toBeUndefined();
        expect(sendingByMessage.get(id)).toMatchObject({ state: 'delivering', lease_owner: worker });
      }
    }
    expect((await statements.releaseExpiredBatchLeases.run(db.pool, {})).rows[0]).toEqual({
      batches: 0,
      deliveries: 0,
    });
    await db.pool.query(`DELETE FROM hookline.fanout_batches`);
  });

  it('backfills a new endpoint exactly once for each message of a transaction the fan-out took in part', async () => {
    await fanOutQueued(db.pool);
    const since = (await db.pool.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t;
    const bigIds = await send(db.pool, 'backfilled', 9);
    // The first 4 taken, before the endpoint existed: only the old endpoint's deliveries.
    expect((await fanOut(4)).taken).toBe(4);
    expect((await cursor()).partialXid).not.toBeNull();
    const added = await createEndpoint(db.pool, appId, 'https://example.com/added');
    // The backfill gives the new endpoint the 4 taken (their fan-out ran before it existed) and leaves
    // the 5 not taken to their fan-out, which reads the endpoints when it runs.
    const { rows } = await statements.backfillBatch.run(db.pool, {
      appId,
      endpointId: added.id,
      since,
      asOf: new Date(Date.now() + 1000),
      cursor: null,
      limit: 100,
    });
    expect(rows[0]!.changed).toBe(4);
    await fanOutQueued(db.pool);
    const { rows: per } = await db.pool.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM hookline.deliveries AS d WHERE d.message_id = hookline.uuid_of(i.id) AND d.endpoint_id = $2) AS n
         FROM unnest($1::text[]) AS i(id)`,
      [bigIds, added.id],
    );
    expect(per.map((row) => row.n)).toEqual(bigIds.map(() => 1));
    await db.pool.query('UPDATE hookline.endpoints SET enabled = false WHERE id = $1', [added.id]);
  });

  it('backfills a message whose fan-out was running, with the endpoints it read, when the endpoint was created', async () => {
    await fanOutQueued(db.pool);
    const since = (await db.pool.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0]!.t;
    const [message] = await send(db.pool, 'in-flight');
    // A fan-out that has read the endpoints and holds the cursor, stalled at its insert (a trigger
    // waits for an advisory lock this test holds, on the stalled pool's connections alone).
    const STALL = 5_167_031;
    await db.pool.query(`CREATE FUNCTION public.stall_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('application_name') = 'stalled-fan-out' THEN PERFORM pg_advisory_xact_lock(${STALL}); END IF;
        RETURN NEW;
      END $$`);
    await db.pool.query(
      'CREATE TRIGGER stall_fan_out BEFORE INSERT ON hookline.deliveries FOR EACH ROW EXECUTE FUNCTION public.stall_fan_out()',
    );
    const holder = await pool.connect();
    const stalledPool = createPool(db.url, { max: 1, application_name: 'stalled-fan-out' });
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [STALL]);
      const stalled = fanOutOnce(stalledPool, { workerId: 'stalled', messages: 10, room: 0, leaseSeconds: 60 });
      for (;;) {
        const { rows } = await db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = 'stalled-fan-out' AND wait_event_type = 'Lock'`,
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The endpoint is created now, and its backfill's batch runs while that fan-out is under way.
      const added = await createEndpoint(db.pool, appId, 'https://example.com/added-mid-fan-out');
      const backfill = (cursor: Record<string, unknown> | null) =>
        statements.backfillBatch.run(db.pool, {
          appId,
          endpointId: added.id,
          since,
          asOf: new Date(Date.now() + 1000),
          cursor: cursor ? JSON.stringify(cursor) : null,
          limit: 100,
        });
      const first = (await backfill(null)).rows[0]!;
      expect(first).toMatchObject({ changed: 0, waits_for_fan_out: true });

      // The fan-out commits, with the endpoints it read: none of them the new one.
      await holder.query('SELECT pg_advisory_unlock($1)', [STALL]);
      expect((await stalled)[0]?.messages_taken).toBe(1);
      const second = (await backfill(first.cursor)).rows[0]!;
      expect(second).toMatchObject({ changed: 1, waits_for_fan_out: false });
      const { rows: to } = await db.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1) AND endpoint_id = $2',
        [message, added.id],
      );
      expect(to[0]!.n).toBe(1);
      await db.pool.query('UPDATE hookline.endpoints SET enabled = false WHERE id = $1', [added.id]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()').catch(() => {});
      holder.release();
      await stalledPool.end();
      await db.pool.query('DROP TRIGGER IF EXISTS stall_fan_out ON hookline.deliveries');
      await db.pool.query('DROP FUNCTION IF EXISTS public.stall_fan_out()');
    }
  });
});
