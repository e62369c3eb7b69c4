// Migration 20261207090000_messages_keyed_by_app: messages are keyed by (app_id, id) and lose their
// (app_id, created_at) index. This carries forward a database written by the release before: periods
// of messages from two apps, a retry waiting, events not yet fanned out, and a period retention had
// detached (its DETACH ... CONCURRENTLY cut short) with a retry still waiting in it. Afterwards every
// period, the loose one too, is keyed by (app_id, id) with no time index, no message went missing, the
// maintenance attaches the loose period back, and a real worker delivers everything that was waiting.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { databaseBefore } from '../support/database-before';
import { asPublicId } from '../support/public-ids';
import { waitUntilSucceeded } from '../support/deliveries';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import { addPeriodsAhead, detachCutShort, STARTS_AHEAD as STARTS } from '../support/time-partitions';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const MIGRATION = '20261207090000_messages_keyed_by_app';
let dropDatabase: (() => Promise<void>) | undefined;
let pool: Pool | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await stopTestWorkers();
  await receiver?.close();
  await pool?.end();
  await dropDatabase?.();
});

/** The indexes of the messages' parent, of each of its partitions and of the loose period, by table. */
async function messageIndexes(): Promise<Record<string, string[]>> {
  const { rows } = await pool!.query<{ table_name: string; definition: string }>(
    `SELECT c.relname AS table_name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_class AS c JOIN pg_index AS i ON i.indrelid = c.oid
      WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind IN ('r', 'p')
        AND (c.relname = 'messages' OR c.relname LIKE 'messages\\_%')
      ORDER BY 1, 2`,
  );
  const byTable: Record<string, string[]> = {};
  for (const row of rows) (byTable[row.table_name] ??= []).push(row.definition.replace(/^.* USING /, ''));
  return byTable;
}

async function messageIds(): Promise<string[]> {
  const { rows } = await pool!.query<{ id: string }>(
    `SELECT id FROM hookline.messages UNION ALL SELECT id FROM hookline.messages_p21000101t0100 ORDER BY 1`,
  );
  // Text before the migrations, uuid after (20261208090000_ids_as_uuid): compared as public ids.
  return rows.map((row) => asPublicId('msg', row.id));
}

describe(`migration ${MIGRATION}`, () => {
  it('keys every period of messages by (app_id, id), the loose one too, and delivers what was waiting', async () => {
    const before = await databaseBefore(MIGRATION);
    dropDatabase = before.drop;
    pool = createPool(before.url, { max: 4 });
    receiver = await startReceiver(answer(200, 'ok'));
    for (const app of ['app_a', 'app_b']) {
      await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ($1, $1)`, [app]);
      await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ($1, 'order.placed')`, [app]);
    }
    const { rows: endpoints } = await pool.query<{ id: string }>(
      `INSERT INTO hookline.endpoints (app_id, url) VALUES ('app_a', $1) RETURNING id`,
      [`${receiver.url}/a`],
    );
    const endpointId = endpoints[0]!.id;

    await addPeriodsAhead(pool, STARTS);
    // In each period a message of app_a fanned out long ago with a retry due now, and one of app_b.
    const waiting: string[] = [];
    for (const [n, start] of STARTS.slice(0, 2).entries()) {
      const messageId = `msg_${start}0000000000000000000${n}`;
      for (const [app, id] of [
        ['app_a', messageId],
        ['app_b', `msg_${start}0000000000000000001${n}`],
      ]) {
        await pool.query(
          `INSERT INTO hookline.messages (id, app_id, event_type, payload, written_by)
           VALUES ($1, $2, 'order.placed', '{}', NULL)`,
          [id, app],
        );
      }
      await pool.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, attempt_count, claimable_at,
                                          last_error_class)
         VALUES ($1, 'app_a', $2, $3, 'order.placed', 1, now(), 'http_5xx')`,
        [`dlv_${start}0000000000000000000${n}`, messageId, endpointId],
      );
      waiting.push(messageId);
    }
    // Events not fanned out yet, as hookline.send wrote them.
    const sent: string[] = [];
    for (const n of [5, 6]) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO hookline.messages (id, app_id, event_type, payload)
         VALUES ($1, 'app_a', 'order.placed', $2::jsonb) RETURNING id`,
        [`msg_${STARTS[0]}0000000000000000002${n}`, JSON.stringify({ n })],
      );
      sent.push(rows[0]!.id);
    }
    // Retention was detaching the second period's messages when its connection went.
    await detachCutShort(pool, 'messages', 'messages_p21000101t0100');
    const idsBefore = await messageIds();
    expect(idsBefore).toHaveLength(6);
    const indexesBefore = await messageIndexes();
    expect(indexesBefore['messages']).toContain('btree (app_id, created_at DESC)');
    expect(indexesBefore['messages']).toContain('btree (id)');

    const { applied } = await migrate(before.url);
    expect(applied[0]).toBe(MIGRATION);

    // Every table of messages (the parent, its periods, and the period left loose by the finished
    // detach) is keyed by (app_id, id) and has no time index; nothing went missing.
    const indexesAfter = await messageIndexes();
    expect(Object.keys(indexesAfter).sort()).toEqual(Object.keys(indexesBefore).sort());
    expect(Object.keys(indexesAfter)).toContain('messages_p21000101t0100');
    for (const [table, definitions] of Object.entries(indexesAfter)) {
      expect(definitions, table).toContain('btree (app_id, id)');
      expect(definitions, table).not.toContain('btree (id)');
      expect(definitions, table).not.toContain('btree (app_id, created_at DESC)');
    }
    const { rows: keys } = await pool.query<{ table_name: string }>(
      `SELECT c.relname AS table_name FROM pg_constraint AS k JOIN pg_class AS c ON c.oid = k.conrelid
        WHERE k.contype = 'p' AND pg_get_constraintdef(k.oid) = 'PRIMARY KEY (app_id, id)'
          AND (c.relname = 'messages' OR c.relname LIKE 'messages\\_%') ORDER BY 1`,
    );
    expect(keys.map((row) => row.table_name)).toEqual(Object.keys(indexesAfter).sort());
    expect(await messageIds()).toEqual(idsBefore);

    // The maintenance attaches the loose period back (a retry still waits in it): with its own key on
    // id alone, ATTACH would have had to add the parent's as a second primary key.
    const result = await maintainTimePartitions(pool, { retentionMs: null, periodMs: 60_000 });
    expect(result?.dropped).not.toContain('p21000101t0100');
    const { rows: attached } = await pool.query<{ attached: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = 'hookline.messages_p21000101t0100'::regclass) AS attached`,
    );
    expect(attached[0]!.attached).toBe(true);

    // A real worker delivers both retries, the events sent before and a new one: the claim reads each
    // delivery's message through the new key.
    const { rows: fresh } = await pool.query<{ id: string }>(
      `SELECT hookline.send('app_a', 'order.placed', '{"n": 7}'::jsonb) AS id`,
    );
    await startTestWorker(before.url);
    const expected = [...waiting, ...sent, fresh[0]!.id];
    await waitUntilSucceeded(pool, endpointId, expected, 'the retries, the events sent before and the new one');
    await stopTestWorkers();
    expect(receiver.requests.map((request) => request.headers['webhook-id']).sort()).toHaveLength(expected.length);
  });
});
