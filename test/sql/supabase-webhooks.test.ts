// hookline.install_supabase_webhooks(): Supabase database webhooks switched to Hookline by redefining
// supabase_functions.http_request(), and back by hookline.uninstall_supabase_webhooks(), against the
// stand-in of test/support/supabase-stand-in.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../lib/runtime/secret-box';
import { Webhook } from 'standardwebhooks';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { dashboardWebhook, SUPABASE_STAND_IN } from '../support/supabase-stand-in';

let db: TestDatabase;
let profiles: Receiver;
let pings: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  profiles = await startReceiver();
  pings = await startReceiver();
});

afterAll(async () => {
  await stopTestWorkers();
  await profiles.close();
  await pings.close();
});

async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[];
}

async function functionState() {
  const [row] = await query(
    `SELECT p.oid::int AS oid, pg_get_functiondef(p.oid) AS definition, p.proowner::regrole::text AS owner,
            p.proacl::text AS acl, p.prosecdef, p.proconfig,
            obj_description(p.oid, 'pg_proc') AS comment
       FROM pg_proc p WHERE p.oid = 'supabase_functions.http_request()'::regprocedure`,
  );
  return row!;
}

describe('hookline.install_supabase_webhooks', () => {
  it('refuses where there is no supabase_functions.http_request()', async () => {
    await expect(query('SELECT hookline.install_supabase_webhooks()')).rejects.toThrow(
      /there is no function supabase_functions.http_request\(\)/,
    );
  });

  it(
    'sends the dashboard’s webhooks through Hookline with the same method, headers and body, and switches back',
    { timeout: 90_000 },
    async () => {
      await db.pool.query(SUPABASE_STAND_IN);
      await db.pool.query(`GRANT EXECUTE ON FUNCTION supabase_functions.http_request() TO PUBLIC`);
      await db.pool.query(
        dashboardWebhook('profiles_to_crm', 'profiles', [
          `${profiles.url}/webhooks/profiles`,
          'POST',
          '{"Content-type":"application/json","X-Crm-Secret":"s3cr3t"}',
          '{}',
          '5000',
        ]),
      );
      await db.pool.query(
        dashboardWebhook('profiles_ping', 'profiles', [
          `${pings.url}/ping`,
          'GET',
          '{"Content-type":"application/json"}',
          '{"source":"supabase"}',
          '1000',
        ]),
      );
      // Before: the stand-in's own behaviour.
      await db.pool.query(`INSERT INTO public.profiles VALUES (100, 'before')`);
      expect(await countRows(db.pool, 'messages', 'request_id IS NOT NULL')).toBe(0);
      const stubbed = await query(`SELECT method, body->>'type' AS type FROM public.stub_requests ORDER BY method`);
      expect(stubbed).toEqual([
        { method: 'GET', type: null },
        { method: 'POST', type: 'INSERT' },
      ]);
      const original = await functionState();
      const [hooksBefore] = (
        await query<{ last: number }>(`SELECT max(id)::int AS last FROM supabase_functions.hooks`)
      ).map((row) => row.last);

      await query('SELECT hookline.install_supabase_webhooks()');
      // The same function (triggers point at its oid), owner, privileges, comment and security.
      const installed = await functionState();
      expect(installed).toMatchObject({
        oid: original.oid,
        owner: original.owner,
        acl: original.acl,
        prosecdef: true,
        comment: 'the stand-in',
      });
      expect(installed.definition).not.toBe(original.definition);
      expect(await query('SELECT function_name, original_definition FROM hookline.replaced_functions')).toEqual([
        { function_name: 'supabase_functions.http_request()', original_definition: original.definition },
      ]);
      // A second install keeps the original, not Hookline's definition.
      await query('SELECT hookline.install_supabase_webhooks()');
      expect(await query('SELECT original_definition FROM hookline.replaced_functions')).toEqual([
        { original_definition: original.definition },
      ]);

      await db.pool.query(`
      INSERT INTO public.profiles VALUES (1, 'Paul');
      UPDATE public.profiles SET name = 'Muad''Dib' WHERE id = 1;
      DELETE FROM public.profiles WHERE id = 1;`);
      // A webhook made in the dashboard after the switch goes through Hookline too.
      await db.pool.query(`CREATE TABLE public.spice (id integer PRIMARY KEY, tonnes integer)`);
      await db.pool.query(
        dashboardWebhook('spice_to_crm', 'spice', [
          `${profiles.url}/webhooks/spice`,
          'POST',
          '{"Content-type":"application/json"}',
          '{}',
          '5000',
        ]),
      );
      await db.pool.query(`INSERT INTO public.spice VALUES (7, 12)`);
      expect(await countRows(db.pool, 'messages', 'request_id IS NOT NULL')).toBe(7);
      // The stub (pg_net) got nothing more.
      expect(await query(`SELECT count(*)::int AS n FROM public.stub_requests`)).toEqual([{ n: 2 }]);

      await startTestWorker(db.url);
      await profiles.waitForRequests(4);
      await pings.waitForRequests(3);

      const crm = profiles.requests.filter((request) => request.path === '/webhooks/profiles');
      const bodies = crm.map((request) => JSON.parse(request.body) as Record<string, unknown>);
      bodies.sort((a, b) => String(a.type).localeCompare(String(b.type)));
      expect(bodies).toEqual([
        { type: 'DELETE', table: 'profiles', schema: 'public', record: null, old_record: { id: 1, name: "Muad'Dib" } },
        { type: 'INSERT', table: 'profiles', schema: 'public', record: { id: 1, name: 'Paul' }, old_record: null },
        {
          type: 'UPDATE',
          table: 'profiles',
          schema: 'public',
          record: { id: 1, name: "Muad'Dib" },
          old_record: { id: 1, name: 'Paul' },
        },
      ]);
      const { rows: secrets } = await db.pool.query<{ url: string; secret: string }>(
        `SELECT e.url, s.secret FROM hookline.endpoints e JOIN hookline.endpoint_secrets s ON s.endpoint_id = e.id`,
      );
      // Stored encrypted once a worker's maintenance has sealed it (lib/database/seal-endpoint-secrets.ts).
      const secretOf = (url: string) => decryptSecret(secrets.find((row) => row.url === url)!.secret);
      for (const request of crm) {
        expect(request.method).toBe('POST');
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.headers['x-crm-secret']).toBe('s3cr3t');
        expect(() =>
          new Webhook(secretOf(`${profiles.url}/webhooks/profiles`)).verify(request.body, request.headers),
        ).not.toThrow();
      }
      expect(pings.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual(
        Array.from({ length: 3 }, () => ({ method: 'GET', path: '/ping?source=supabase', body: '' })),
      );
      const spice = profiles.requests.find((request) => request.path === '/webhooks/spice')!;
      expect(JSON.parse(spice.body)).toEqual({
        type: 'INSERT',
        table: 'spice',
        schema: 'public',
        record: { id: 7, tonnes: 12 },
        old_record: null,
      });

      // The bookkeeping: one hooks row per request, naming the table and trigger, with Hookline's id.
      const hooks = await query<{ hook_table_id: number; hook_name: string; request_id: number }>(
        `SELECT h.hook_table_id, h.hook_name, h.request_id FROM supabase_functions.hooks h
        WHERE h.id > $1 ORDER BY h.id`,
        [hooksBefore],
      );
      const [{ profiles: profilesOid, spice: spiceOid }] = (await query<{ profiles: number; spice: number }>(
        `SELECT 'public.profiles'::regclass::oid::int AS profiles, 'public.spice'::regclass::oid::int AS spice`,
      )) as [{ profiles: number; spice: number }];
      expect(hooks.map(({ hook_table_id, hook_name }) => [hook_table_id, hook_name]).sort()).toEqual(
        [
          [profilesOid, 'profiles_to_crm'],
          [profilesOid, 'profiles_to_crm'],
          [profilesOid, 'profiles_to_crm'],
          [profilesOid, 'profiles_ping'],
          [profilesOid, 'profiles_ping'],
          [profilesOid, 'profiles_ping'],
          [spiceOid, 'spice_to_crm'],
        ].sort(),
      );
      await waitUntil(
        async () =>
          (
            await query<{ n: number }>(
              `SELECT count(*)::int AS n FROM hookline._http_response r
               JOIN supabase_functions.hooks h ON h.request_id = r.id
              WHERE h.id > $1 AND r.status_code = 200`,
              [hooksBefore],
            )
          )[0]!.n === 7,
        // Each read of the view may compile for seconds on a PostgreSQL with JIT (pg-net-compat.test.ts).
        { what: 'every hooked request answered in hookline._http_response', timeoutMs: 40_000 },
      );

      // Switch back: the original definition, exactly, and pg_net's path again.
      await query('SELECT hookline.uninstall_supabase_webhooks()');
      expect(await functionState()).toEqual(original);
      expect(await countRows(db.pool, 'replaced_functions')).toBe(0);
      await db.pool.query(`INSERT INTO public.profiles VALUES (2, 'Chani')`);
      expect(await countRows(db.pool, 'messages', 'request_id IS NOT NULL')).toBe(7);
      expect(await query(`SELECT count(*)::int AS n FROM public.stub_requests`)).toEqual([{ n: 4 }]);
      // A second uninstall does nothing.
      await query('SELECT hookline.uninstall_supabase_webhooks()');
      expect(await functionState()).toEqual(original);
    },
  );
});
