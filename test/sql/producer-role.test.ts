// A producer that is not Hookline's owner: an application role given exactly the grants README.md
// ("Privileges") lists records events through a trigger calling hookline.send, and requests through
// hookline.http_post / http_get / http_delete, while every table of schema hookline stays closed to it
// (endpoints' URLs and headers, signing secrets, messages). The grants are read from the README, so the
// README cannot list fewer than a producer needs, nor more without this test saying so.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../lib/database/pg';
import { createTestDatabase, type TestDatabase } from '../support/database';

const suffix = randomBytes(4).toString('hex');
const PRODUCER = `hl_producer_${suffix}`;
const PASSWORD = randomBytes(12).toString('hex');
const APP = `app_producer_${suffix}`;

/** The `sql` block of the README's Privileges paragraph that grants to `writer`. */
function readmeGrants(): string {
  const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  const grants = blocks.filter((block) => /\bGRANT\b[\s\S]*\bTO writer\b/.test(block));
  expect(grants, 'one sql block in the README grants to writer').toHaveLength(1);
  return grants[0]!;
}

let db: TestDatabase;
let producer: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`CREATE ROLE ${PRODUCER} LOGIN PASSWORD '${PASSWORD}'`);
  await db.pool.query(readmeGrants().replace(/\bwriter\b/g, PRODUCER));
  // The application's own table and trigger, as in the README's hookline.send example; the grants on
  // its own table are the application's business, not Hookline's.
  await db.pool.query(`
    INSERT INTO hookline.apps (id, name) VALUES ('${APP}', 'Producer');
    INSERT INTO hookline.event_types (app_id, name) VALUES ('${APP}', 'spice.harvested');
    CREATE TABLE public.spice_harvests (id bigserial PRIMARY KEY, planet text NOT NULL, tonnes numeric NOT NULL);
    CREATE FUNCTION public.notify_harvest() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hookline.send('${APP}', 'spice.harvested', to_jsonb(NEW));
      RETURN NEW;
    END $$;
    CREATE TRIGGER spice_harvests_webhook AFTER INSERT ON public.spice_harvests
      FOR EACH ROW EXECUTE FUNCTION public.notify_harvest();
    GRANT INSERT ON public.spice_harvests TO ${PRODUCER};
    GRANT USAGE ON SEQUENCE public.spice_harvests_id_seq TO ${PRODUCER};`);
  const url = new URL(withDatabase(inject('maintenanceUrl'), db.name));
  url.username = PRODUCER;
  url.password = PASSWORD;
  producer = new pg.Client({ connectionString: url.toString() });
  await producer.connect();
});

afterAll(async () => {
  await producer?.end();
  // The role holds privileges in the test database: revoke them there, then drop it (roles are per cluster).
  await db.pool.query(`DROP OWNED BY ${PRODUCER}`);
  await db.pool.query(`DROP ROLE ${PRODUCER}`);
});

describe('a producer role with only the README grants', () => {
  it('is not the owner of schema hookline, nor a superuser', async () => {
    const { rows } = await producer.query(
      `SELECT r.rolsuper, n.nspowner = r.oid AS owns_hookline
         FROM pg_roles r, pg_namespace n WHERE r.rolname = current_user AND n.nspname = 'hookline'`,
    );
    expect(rows).toEqual([{ rolsuper: false, owns_hookline: false }]);
  });

  it('records events through a trigger calling hookline.send, and by calling it', async () => {
    await producer.query(`INSERT INTO public.spice_harvests (planet, tonnes) VALUES ('Arrakis', 12), ('Caladan', 3)`);
    const { rows: direct } = await producer.query<{ id: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"planet": "Giedi Prime", "tonnes": 1}', 'harvest-1') AS id`,
      [APP],
    );
    const { rows: repeat } = await producer.query<{ id: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"planet": "Giedi Prime", "tonnes": 1}', 'harvest-1') AS id`,
      [APP],
    );
    expect(direct[0]!.id).toMatch(/^msg_/);
    expect(repeat[0]!.id).toBe(direct[0]!.id);
    // Its errors still name what is wrong, as they do for the owner.
    await expect(producer.query(`SELECT hookline.send('app_nope', 'spice.harvested', '{}')`)).rejects.toThrow(
      /unknown app 'app_nope'/,
    );

    const { rows } = await db.pool.query(
      `SELECT m.payload->>'planet' AS planet,
              m.written_by IS NOT NULL AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through) AS waiting
         FROM hookline.messages m, hookline.fanout_cursor c
        WHERE m.app_id = $1 ORDER BY m.payload->>'planet'`,
      [APP],
    );
    // Each waits for the fan-out, found by the producer's transaction: no table the producer may not
    // write was needed for it.
    expect(rows).toEqual([
      { planet: 'Arrakis', waiting: true },
      { planet: 'Caladan', waiting: true },
      { planet: 'Giedi Prime', waiting: true },
    ]);
  });

  it('records requests through hookline.http_post, http_get and http_delete', async () => {
    const { rows } = await producer.query<{ post: string; again: string; get: string; delete: string }>(
      `SELECT hookline.http_post('https://example.com/hooks', '{"n": 1}') AS post,
              hookline.http_post(url := 'https://example.com/hooks', body := '{"n": 2}') AS again,
              hookline.http_get('https://example.com/items', '{"q": "x"}') AS get,
              hookline.http_delete('https://example.com/items/1') AS delete`,
    );
    expect(Object.values(rows[0]!).every((id) => Number(id) > 0)).toBe(true);
    const { rows: recorded } = await db.pool.query(
      `SELECT e.method, e.url, count(*)::int AS messages, bool_and(s.n = 1) AS one_secret
         FROM hookline.messages m JOIN hookline.endpoints e ON e.id = m.target_endpoint_id
         CROSS JOIN LATERAL (SELECT count(*) AS n FROM hookline.endpoint_secrets s WHERE s.endpoint_id = e.id) s
        WHERE m.request_id IS NOT NULL GROUP BY e.method, e.url ORDER BY e.url, e.method`,
    );
    expect(recorded).toEqual([
      { method: 'POST', url: 'https://example.com/hooks', messages: 2, one_secret: true },
      { method: 'DELETE', url: 'https://example.com/items/1', messages: 1, one_secret: true },
      { method: 'GET', url: 'https://example.com/items?q=x', messages: 1, one_secret: true },
    ]);
  });

  it('cannot read or write any table of schema hookline directly', async () => {
    for (const table of [
      'endpoints',
      'endpoint_secrets',
      'messages',
      'apps',
      'event_types',
      'fanout_cursor',
      'fanout_batches',
    ]) {
      await expect(producer.query(`SELECT * FROM hookline.${table} LIMIT 1`), table).rejects.toThrow(
        /permission denied/,
      );
    }
    await expect(
      producer.query(
        `INSERT INTO hookline.messages (app_id, event_type, payload) VALUES ($1, 'spice.harvested', '{}')`,
        [APP],
      ),
    ).rejects.toThrow(/permission denied/);
  });
});
