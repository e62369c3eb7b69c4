// Managed PostgreSQL (no extension, no superuser): everything issue 25 installs, done by a role that
// is not a superuser and owns its database, as on a hosted service. The role migrates Hookline,
// installs the pg_net compatibility schema and the Supabase webhooks switch, and a second role with
// only the grants the README lists records requests through net.http_*.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { dashboardWebhook, SUPABASE_STAND_IN } from '../support/supabase-stand-in';

const suffix = randomBytes(4).toString('hex');
const OWNER = `hl_owner_${suffix}`;
const WRITER = `hl_writer_${suffix}`;
const DATABASE = `hl_managed_${suffix}`;
const PASSWORD = randomBytes(12).toString('hex');

// The grant README.md ("Privileges") lists for a role that records requests but does not own Hookline.
const WRITER_GRANTS = `GRANT USAGE ON SCHEMA hookline TO ${WRITER};`;

function urlAs(role: string): string {
  const url = new URL(inject('maintenanceUrl'));
  url.username = role;
  url.password = PASSWORD;
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

let owner: pg.Client;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${OWNER} LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query(`CREATE ROLE ${WRITER} LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query(`CREATE DATABASE ${DATABASE} OWNER ${OWNER}`);
  } finally {
    await admin.end();
  }
  await migrate(urlAs(OWNER));
  owner = new pg.Client({ connectionString: urlAs(OWNER) });
  await owner.connect();
});

afterAll(async () => {
  await owner?.end();
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${WRITER}`);
    await admin.query(`DROP ROLE IF EXISTS ${OWNER}`);
  } finally {
    await admin.end();
  }
});

describe('installs on managed PostgreSQL', () => {
  it('runs as a role that owns its database and is nothing more, with no extension', async () => {
    const { rows } = await owner.query(
      `SELECT r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolbypassrls,
              (SELECT array_agg(extname::text ORDER BY extname) FROM pg_extension) AS extensions
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows).toEqual([
      { rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolbypassrls: false, extensions: ['plpgsql'] },
    ]);
  });

  it('installs and uninstalls the pg_net compatibility schema; a role with the listed grants calls it', async () => {
    await owner.query('SELECT hookline.install_pg_net_compat()');
    await owner.query(WRITER_GRANTS);

    const writer = new pg.Client({ connectionString: urlAs(WRITER) });
    await writer.connect();
    try {
      const { rows } = await writer.query<{ post: string; get: string; delete: string }>(
        `SELECT net.http_post('https://example.com/hooks', '{"n": 1}') AS post,
                net.http_get('https://example.com/items', '{"q": "x"}') AS get,
                net.http_delete('https://example.com/items/1') AS delete`,
      );
      expect(Object.values(rows[0]!).every((id) => Number(id) > 0)).toBe(true);
      // The grant does not let it read what others sent, the endpoints, nor the signing secrets.
      await expect(writer.query('SELECT secret FROM hookline.endpoint_secrets')).rejects.toThrow(/permission denied/);
      await expect(writer.query('SELECT * FROM hookline.endpoints')).rejects.toThrow(/permission denied/);
      await expect(writer.query('SELECT * FROM net._http_response')).rejects.toThrow(/permission denied/);
    } finally {
      await writer.end();
    }
    const { rows } = await owner.query(
      `SELECT e.method, e.url FROM hookline.messages m JOIN hookline.endpoints e ON e.id = m.target_endpoint_id
        WHERE m.request_id IS NOT NULL ORDER BY m.request_id`,
    );
    expect(rows).toEqual([
      { method: 'POST', url: 'https://example.com/hooks' },
      { method: 'GET', url: 'https://example.com/items?q=x' },
      { method: 'DELETE', url: 'https://example.com/items/1' },
    ]);

    await owner.query('SELECT hookline.uninstall_pg_net_compat()');
    const { rows: schemas } = await owner.query(`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'net'`);
    expect(schemas).toEqual([{ n: 0 }]);
  });

  it('switches Supabase webhooks to Hookline and back', async () => {
    await owner.query(SUPABASE_STAND_IN);
    await owner.query(
      dashboardWebhook('profiles_hook', 'profiles', [
        'https://example.com/profiles',
        'POST',
        '{"Content-type":"application/json"}',
        '{}',
        '5000',
      ]),
    );
    const definition = async () =>
      (await owner.query(`SELECT pg_get_functiondef('supabase_functions.http_request()'::regprocedure) AS d`)).rows[0]
        .d as string;
    const original = await definition();

    await owner.query('SELECT hookline.install_supabase_webhooks()');
    await owner.query(`INSERT INTO public.profiles VALUES (1, 'Leto')`);
    const { rows } = await owner.query(
      `SELECT h.hook_name, m.payload->>'type' AS type FROM supabase_functions.hooks h
         JOIN hookline.messages m ON m.request_id = h.request_id`,
    );
    expect(rows).toEqual([{ hook_name: 'profiles_hook', type: 'INSERT' }]);

    await owner.query('SELECT hookline.uninstall_supabase_webhooks()');
    expect(await definition()).toBe(original);
  });
});
