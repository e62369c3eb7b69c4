// hookline.install_pg_net_compat(): a schema net whose functions, types and view delegate to Hookline,
// so code written for pg_net runs unchanged. A trigger calling net.http_post, net.http_get and
// net.http_delete as written for pg_net is delivered by a real worker to a real receiver, and the
// well-known diagnostic query reads net._http_response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const DIAGNOSTIC_QUERY =
  'SELECT count(id), status_code, error_msg FROM net._http_response GROUP BY status_code, error_msg ORDER BY 1 DESC;';

let db: TestDatabase;
let receiver: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver.close();
});

async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[];
}

async function netObjects() {
  return query<{ kind: string; name: string }>(
    `SELECT 'function' AS kind, p.oid::regprocedure::text AS name FROM pg_proc p WHERE p.pronamespace = 'net'::regnamespace
     UNION ALL SELECT 'type', t.typname FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
      WHERE t.typnamespace = 'net'::regnamespace AND (t.typtype = 'e' OR c.relkind = 'c')
     UNION ALL SELECT 'relation', c.relname FROM pg_class c
      WHERE c.relnamespace = 'net'::regnamespace AND c.relkind <> 'c'
     ORDER BY 1, 2`,
  );
}

async function schemaNetExists(): Promise<boolean> {
  const [row] = await query<{ exists: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'net') AS exists`,
  );
  return row!.exists;
}

describe('hookline.install_pg_net_compat', () => {
  it('creates schema net with pg_net 0.20’s functions, types and view, and removes exactly that', async () => {
    expect(await schemaNetExists()).toBe(false);
    await query('SELECT hookline.install_pg_net_compat()');
    expect(await netObjects()).toEqual([
      { kind: 'function', name: 'net.http_collect_response(bigint,boolean)' },
      { kind: 'function', name: 'net.http_delete(text,jsonb,jsonb,integer,jsonb)' },
      { kind: 'function', name: 'net.http_get(text,jsonb,jsonb,integer)' },
      { kind: 'function', name: 'net.http_post(text,jsonb,jsonb,jsonb,integer)' },
      { kind: 'relation', name: '_http_response' },
      { kind: 'type', name: 'http_response' },
      { kind: 'type', name: 'http_response_result' },
      { kind: 'type', name: 'request_status' },
    ]);
    // Parameter names and defaults as pg_net's, which are hookline's.
    const signatures = await query<{ name: string; net: string; hookline: string }>(
      `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS net,
              pg_get_function_arguments(h.oid) AS hookline
         FROM pg_proc p JOIN pg_proc h ON h.proname = p.proname AND h.pronamespace = 'hookline'::regnamespace
        WHERE p.pronamespace = 'net'::regnamespace ORDER BY 1`,
    );
    expect(signatures).toHaveLength(4);
    for (const row of signatures) expect(row.net, row.name).toBe(row.hookline);
    expect(
      await query(
        `SELECT pg_get_function_result('net.http_collect_response'::regproc) AS result,
                enum_range(NULL::net.request_status)::text AS statuses`,
      ),
    ).toEqual([{ result: 'net.http_response_result', statuses: '{PENDING,SUCCESS,ERROR}' }]);
    expect(
      await query(
        `SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) AS columns
           FROM pg_attribute a WHERE a.attrelid = 'net._http_response'::regclass AND a.attnum > 0`,
      ),
    ).toEqual([
      {
        columns:
          'id bigint, status_code integer, content_type text, headers jsonb, content text, ' +
          'timed_out boolean, error_msg text, created timestamp with time zone',
      },
    ]);

    // The request functions are inlined: a caller's statement calls hookline.* directly, so the
    // compatibility layer costs producers no second function call (issue 25's bench budget).
    const plan = await query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (VERBOSE, COSTS OFF)
       SELECT net.http_post('https://example.com/'), net.http_get('https://example.com/'),
              net.http_delete('https://example.com/')`,
    );
    const output = plan.map((row) => row['QUERY PLAN']).join('\n');
    // (hookline.http_get and http_delete are inlined in turn, down to their shared function.)
    expect(output).toMatch(
      /hookline\.http_post\(.*hookline\.enqueue_http_request\('GET'.*hookline\.enqueue_http_request\('DELETE'/,
    );
    expect(output).not.toMatch(/net\.http_/);

    // A second install changes nothing; the uninstall leaves no schema net; a second one does nothing.
    await query('SELECT hookline.install_pg_net_compat()');
    expect(await netObjects()).toHaveLength(8);
    await query('SELECT hookline.uninstall_pg_net_compat()');
    expect(await schemaNetExists()).toBe(false);
    await query('SELECT hookline.uninstall_pg_net_compat()');
  });

  it(
    'runs a pg_net trigger and the diagnostic query unchanged, delivered by a worker',
    { timeout: 90_000 },
    async () => {
      await query('SELECT hookline.install_pg_net_compat()');
      const base = receiver.url;
      // Written for pg_net: named and positional arguments, all three methods.
      await db.pool.query(`
      CREATE TABLE orders (id bigserial PRIMARY KEY, status text NOT NULL);
      CREATE FUNCTION orders_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM net.http_post(
            url := '${base}/orders',
            body := jsonb_build_object('id', NEW.id, 'status', NEW.status),
            headers := '{"Content-Type": "application/json", "X-Shop": "arrakis"}'::jsonb
          );
        ELSIF TG_OP = 'UPDATE' THEN
          PERFORM net.http_get('${base}/orders/' || NEW.id, jsonb_build_object('status', NEW.status));
        ELSE
          PERFORM net.http_delete(url := '${base}/orders/' || OLD.id, timeout_milliseconds := 2000);
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER orders_webhook AFTER INSERT OR UPDATE OR DELETE ON orders
        FOR EACH ROW EXECUTE FUNCTION orders_webhook();
      INSERT INTO orders (status) VALUES ('new');
      UPDATE orders SET status = 'paid';
      DELETE FROM orders;`);
      expect(await countRows(db.pool, 'messages', `request_id IS NOT NULL`)).toBe(3);

      await startTestWorker(db.url);
      await receiver.waitForRequests(3);
      // Three endpoints, sent concurrently: in any order.
      const sent = receiver.requests.map(({ method, path, body }) => ({ method, path, body }));
      expect(sent.sort((a, b) => a.method.localeCompare(b.method))).toEqual([
        { method: 'DELETE', path: '/orders/1', body: '' },
        { method: 'GET', path: '/orders/1?status=paid', body: '' },
        { method: 'POST', path: '/orders', body: '{"id": 1, "status": "new"}' },
      ]);
      expect(receiver.requests.find((request) => request.method === 'POST')!.headers['x-shop']).toBe('arrakis');

      const summary = await waitUntil(
        async () => {
          const rows = await query(DIAGNOSTIC_QUERY);
          return rows.length === 1 && rows[0]!.count === 3 ? rows : null;
        },
        // Each read of the view may compile for seconds on a PostgreSQL with JIT (Debian's 15: 6.5 s a read
        // with 20 time partitions, 25 ms with jit off), so the wait allows several.
        { what: 'three responses in net._http_response', timeoutMs: 40_000 },
      );
      expect(summary).toEqual([{ count: 3, status_code: 200, error_msg: null }]);
      const [first] = await query<{ id: number }>(`SELECT min(id) AS id FROM net._http_response`);
      expect(
        await query(
          `SELECT status::text, message, (response).status_code, pg_typeof(r)::text AS type
           FROM net.http_collect_response($1) AS r`,
          [first!.id],
        ),
      ).toEqual([{ status: 'SUCCESS', message: 'ok', status_code: 200, type: 'net.http_response_result' }]);
      expect(await query(`SELECT status::text, message FROM net.http_collect_response(424242, async := true)`)).toEqual(
        [{ status: 'ERROR', message: 'request matching request_id not found' }],
      );

      await stopTestWorkers();
      await db.pool.query('DROP TABLE orders; DROP FUNCTION orders_webhook()');
      await query('SELECT hookline.uninstall_pg_net_compat()');
    },
  );

  it('refuses where pg_net is installed, saying how to switch', async () => {
    // pg_net cannot be installed here; its catalog row is what the install looks at. Inserted as the
    // superuser the tests run as, inside a transaction that is rolled back.
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO pg_extension (oid, extname, extowner, extnamespace, extrelocatable, extversion)
         VALUES (4294967000, 'pg_net', 10, 'public'::regnamespace, false, '0.20.0')`,
      );
      const error = await client.query('SELECT hookline.install_pg_net_compat()').then(
        () => null,
        (caught: Error & { hint?: string }) => caught,
      );
      expect(error?.message).toMatch(/the pg_net extension is installed in this database/);
      expect(error?.hint).toMatch(
        /net\.http_request_queue.*DROP EXTENSION pg_net.*hookline\.install_pg_net_compat\(\)/,
      );
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect(await schemaNetExists()).toBe(false);
  });

  it('leaves a schema net that is not its own alone, on install and on uninstall', async () => {
    await db.pool.query(`CREATE SCHEMA net; CREATE TABLE net.mine (id int)`);
    try {
      await expect(query('SELECT hookline.install_pg_net_compat()')).rejects.toThrow(
        /a schema net exists and is not Hookline's/,
      );
      await expect(query('SELECT hookline.uninstall_pg_net_compat()')).rejects.toThrow(/schema net is not Hookline's/);
      expect(await netObjects()).toEqual([{ kind: 'relation', name: 'mine' }]);
    } finally {
      await db.pool.query('DROP SCHEMA net CASCADE');
    }
  });

  it('uninstalls nothing while an object of the user depends on it', async () => {
    await query('SELECT hookline.install_pg_net_compat()');
    await db.pool.query(`CREATE VIEW public.failures AS SELECT * FROM net._http_response WHERE error_msg IS NOT NULL`);
    await expect(query('SELECT hookline.uninstall_pg_net_compat()')).rejects.toThrow(/depend/);
    expect(await netObjects()).toHaveLength(8);
    await db.pool.query('DROP VIEW public.failures');
    await query('SELECT hookline.uninstall_pg_net_compat()');
    expect(await schemaNetExists()).toBe(false);
  });
});
