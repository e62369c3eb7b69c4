// Migration 20261204090000_idempotency_keys_in_c_collation: the idempotency key compares byte by byte,
// as the ids do. This carries forward a database created as most servers are (its own collation
// en-US, by ICU, where the test server's is C) with keyed messages sent by the release before, and
// checks that every key still answers its first message, and that keys differing only in case or
// punctuation stay apart.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { createPool, type Pool } from '../../lib/database/pg';
import { databaseBefore } from '../support/database-before';

const MIGRATION = '20261204090000_idempotency_keys_in_c_collation';
const KEYS = ['order-1042', 'Order-1042', 'order_1042', 'ORDER-1042!'];
let pool: Pool | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

afterAll(async () => {
  await pool?.end();
  await dropDatabase?.();
});

const send = async (key: string, payload: object) =>
  (
    await pool!.query<{ id: string }>(`SELECT hookline.send('app_en', 'order.placed', $1::jsonb, $2) AS id`, [
      JSON.stringify(payload),
      key,
    ])
  ).rows[0]!.id;

async function keyCollation(): Promise<string> {
  const { rows } = await pool!.query<{ collation: string }>(
    `SELECT CASE WHEN a.attcollation = 'pg_catalog.default'::regcollation THEN 'default' ELSE co.collname END AS collation
       FROM pg_attribute AS a JOIN pg_collation AS co ON co.oid = a.attcollation
      WHERE a.attrelid = 'hookline.idempotency_keys'::regclass AND a.attname = 'idempotency_key'`,
  );
  return rows[0]!.collation;
}

describe(`migration ${MIGRATION}`, () => {
  it('keeps every key of a database created in en-US answering its first message, in the C collation', async () => {
    const before = await databaseBefore(MIGRATION, { icuLocale: 'en-US' });
    dropDatabase = before.drop;
    pool = createPool(before.url);
    await pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_en', 'Zebra crossing')`);
    await pool.query(`INSERT INTO hookline.event_types (app_id, name) VALUES ('app_en', 'order.placed')`);
    // Keyed messages as hookline.send writes them (this database has the functions as its migrations
    // left them, not the release's): the key claimed, then the message.
    const first = new Map<string, string>();
    for (const [n, key] of KEYS.entries()) {
      const id = `msg_0190000000000000000000000000000${n}`;
      await pool.query(
        `INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id) VALUES ('app_en', $1, $2)`,
        [key, id],
      );
      await pool.query(
        `INSERT INTO hookline.messages (id, app_id, event_type, payload, idempotency_key)
         VALUES ($1, 'app_en', 'order.placed', $2::jsonb, $3)`,
        [id, JSON.stringify({ n }), key],
      );
      first.set(key, id);
    }
    expect(await keyCollation()).toBe('default');

    expect((await migrate(before.url)).applied[0]).toBe(MIGRATION);

    expect(await keyCollation()).toBe('C');
    // A repeat answers the first message and writes nothing; a new key writes a new one.
    for (const key of KEYS) expect(await send(key, { again: true })).toBe(first.get(key));
    const fresh = await send('order-1043', { n: 9 });
    expect([...first.values()]).not.toContain(fresh);
    const { rows } = await pool.query<{ messages: number; keys: number }>(
      `SELECT (SELECT count(*)::int FROM hookline.messages) AS messages,
              (SELECT count(*)::int FROM hookline.idempotency_keys) AS keys`,
    );
    expect(rows[0]).toEqual({ messages: KEYS.length + 1, keys: KEYS.length + 1 });
    // The primary key was rebuilt in C, and serves the key's lookup.
    const { rows: index } = await pool.query<{ valid: boolean; collation: string }>(
      `SELECT i.indisvalid AS valid, co.collname AS collation
         FROM pg_index AS i JOIN pg_collation AS co ON co.oid = i.indcollation[1]
        WHERE i.indexrelid = 'hookline.idempotency_keys_pkey'::regclass`,
    );
    expect(index).toEqual([{ valid: true, collation: 'C' }]);
  });
});
