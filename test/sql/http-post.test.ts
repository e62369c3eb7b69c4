// hookline.http_post, the pg_net drop-in: a trigger written for net.http_post works with only the
// schema name changed, and a real worker delivers what it recorded to a loopback receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/runtime/env';
import { workerOptionsFromConfig } from '../../worker/start-worker';
import { DeliveryWorker } from '../../worker/delivery-worker';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fanOutQueued } from '../support/deliveries';
import { countRows } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { testLogger } from '../support/worker';

const PG_NET_APP = 'app_pg_net';

let db: TestDatabase;
let receiver: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

async function httpPost(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ request_id: number }>(`SELECT ${sql} AS request_id`, params);
  return rows[0]!.request_id;
}

describe('hookline.http_post', () => {
  it('has the signature of pg_net net.http_post', async () => {
    const { rows } = await db.pool.query<{ args: string; result: string }>(
      `SELECT pg_get_function_arguments(p.oid) AS args, pg_get_function_result(p.oid) AS result
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'hookline' AND p.proname = 'http_post'`,
    );
    expect(rows).toEqual([
      {
        args:
          `url text, body jsonb DEFAULT '{}'::jsonb, params jsonb DEFAULT '{}'::jsonb, ` +
          `headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb, ` +
          `timeout_milliseconds integer DEFAULT 5000`,
        result: 'bigint',
      },
    ]);
  });

  it('moves the pg_net benchmark trigger over by the schema name, and a worker delivers every row', async () => {
    const rowCount = 200;
    const url = `${receiver.url}/webhooks/harvest`;
    await db.pool.query(`
      CREATE TABLE spice_harvests (id bigserial PRIMARY KEY, planet text NOT NULL, tonnes numeric NOT NULL);
      CREATE FUNCTION notify_harvest() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM hookline.http_post(
          url := '${url}',
          body := to_jsonb(NEW),
          headers := '{"Content-Type": "application/json"}'::jsonb
        );
        RETURN NEW;
      END $$;
      CREATE TRIGGER harvest_webhook AFTER INSERT ON spice_harvests FOR EACH ROW EXECUTE FUNCTION notify_harvest();`);
    const before = await countRows(db.pool, 'deliveries');
    // Several concurrent transactions, as pgbench clients would be, racing to create the endpoint.
    await Promise.all(
      Array.from({ length: 4 }, (_, client) =>
        db.pool.query(
          `INSERT INTO spice_harvests (planet, tonnes)
           SELECT 'Arrakis', g FROM generate_series($1::int, $2::int) AS g`,
          [client * (rowCount / 4) + 1, (client + 1) * (rowCount / 4)],
        ),
      ),
    );

    // Each request is fanned out to its own implicit endpoint only (the app's other implicit endpoints
    // take the same event type).
    expect(await fanOutQueued(db.pool)).toBe(rowCount);
    const endpoints = await db.pool.query<{
      id: string;
      url: string;
      implicit: boolean;
      headers: object;
      timeout_ms: number;
    }>(`SELECT id, url, implicit, headers, timeout_ms FROM hookline.endpoints WHERE app_id = $1 AND url = $2`, [
      PG_NET_APP,
      url,
    ]);
    expect(endpoints.rows).toHaveLength(1);
    const endpoint = endpoints.rows[0]!;
    // Content-Type is the worker's to set; keeping it would send the header twice.
    expect(endpoint).toMatchObject({ implicit: true, headers: {}, timeout_ms: 5000 });
    expect(
      await countRows(db.pool, 'endpoint_secrets', `endpoint_id = $1 AND secret LIKE 'whsec\\_%'`, [endpoint.id]),
    ).toBe(1);
    expect(await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'pending'`, [endpoint.id])).toBe(
      rowCount,
    );
    expect(await countRows(db.pool, 'deliveries')).toBe(before + rowCount);
    expect(await countRows(db.pool, 'messages', `app_id = $1 AND request_id IS NOT NULL`, [PG_NET_APP])).toBe(rowCount);

    const worker = new DeliveryWorker({
      ...workerOptionsFromConfig(
        loadConfig({ NODE_ENV: 'test', HOOKLINE_ALLOW_LOOPBACK: 'true', HOOKLINE_POLL_INTERVAL_MS: '100' }),
        db.url,
      ),
      log: testLogger(),
    });
    await worker.start();
    try {
      await receiver.waitForRequests(rowCount, 20_000);
      await waitUntil(
        async () =>
          (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpoint.id])) ===
          rowCount,
        { what: 'every delivery recorded as succeeded' },
      );
    } finally {
      await worker.stop();
    }
    const harvested = receiver.requests.filter((request) => request.path === '/webhooks/harvest');
    expect(harvested).toHaveLength(rowCount);
    // As pg_net would post it: the row itself, not wrapped in an envelope.
    const ids = harvested.map((request) => (JSON.parse(request.body) as { id: number }).id);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: rowCount }, (_, index) => index + 1)));
    expect(JSON.parse(harvested[0]!.body)).toMatchObject({ planet: 'Arrakis' });
    expect(harvested[0]!.headers['content-type']).toBe('application/json');
    expect(harvested[0]!.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('accepts positional and named arguments, turns params into the query string and returns increasing request ids', async () => {
    const base = `${receiver.url}/positional`;
    const first = await httpPost(`hookline.http_post($1, '{"n": 1}'::jsonb)`, [base]);
    const second = await httpPost(`hookline.http_post($1, '{"n": 2}'::jsonb, '{"q": "a b&c", "k": "é"}'::jsonb)`, [
      base,
    ]);
    const named = await httpPost(
      `hookline.http_post(timeout_milliseconds := 750, url := $1, headers := '{"X-Api-Key": "k1"}'::jsonb)`,
      [base],
    );
    expect(second).toBeGreaterThan(first);
    expect(named).toBeGreaterThan(second);

    const { rows } = await db.pool.query<{
      request_id: number;
      payload: unknown;
      url: string;
      headers: object;
      timeout_ms: number;
    }>(
      `SELECT m.request_id, m.payload, e.url, e.headers, e.timeout_ms
         FROM hookline.messages m
         JOIN hookline.deliveries d ON d.message_id = m.id
         JOIN hookline.endpoints e ON e.id = d.endpoint_id
        WHERE m.request_id = ANY($1::bigint[]) ORDER BY m.request_id`,
      [[first, second, named]],
    );
    expect(rows).toEqual([]);
    await fanOutQueued(db.pool);
    const fannedOut = await db.pool.query(
      `SELECT m.request_id, m.payload, e.url, e.headers, e.timeout_ms
         FROM hookline.messages m
         JOIN hookline.deliveries d ON d.message_id = m.id
         JOIN hookline.endpoints e ON e.id = d.endpoint_id
        WHERE m.request_id = ANY($1::bigint[]) ORDER BY m.request_id`,
      [[first, second, named]],
    );
    expect(fannedOut.rows).toEqual([
      { request_id: first, payload: { n: 1 }, url: base, headers: {}, timeout_ms: 5000 },
      { request_id: second, payload: { n: 2 }, url: `${base}?k=%C3%A9&q=a%20b%26c`, headers: {}, timeout_ms: 5000 },
      { request_id: named, payload: {}, url: base, headers: { 'x-api-key': 'k1' }, timeout_ms: 750 },
    ]);
    // Same URL, headers and timeout: the endpoint is found again, not created twice.
    await httpPost(`hookline.http_post($1)`, [base]);
    expect(await countRows(db.pool, 'endpoints', `app_id = $1 AND url = $2`, [PG_NET_APP, base])).toBe(2);
  });

  it('records nothing, not even the implicit endpoint, when the caller rolls back', async () => {
    const url = `${receiver.url}/rolled-back`;
    const messages = await countRows(db.pool, 'messages');
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT hookline.http_post($1, '{"x": 1}'::jsonb)`, [url]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await countRows(db.pool, 'messages')).toBe(messages);
    expect(await countRows(db.pool, 'endpoints', 'url = $1', [url])).toBe(0);
  });

  it('records the message but no delivery when an operator disabled the implicit endpoint', async () => {
    const url = `${receiver.url}/disabled`;
    await httpPost(`hookline.http_post($1)`, [url]);
    await db.pool.query(`UPDATE hookline.endpoints SET enabled = false WHERE url = $1`, [url]);
    const requestId = await httpPost(`hookline.http_post($1)`, [url]);
    await fanOutQueued(db.pool);
    expect(await countRows(db.pool, 'messages', 'request_id = $1', [requestId])).toBe(1);
    expect(
      await countRows(db.pool, 'deliveries', 'message_id IN (SELECT id FROM hookline.messages WHERE request_id = $1)', [
        requestId,
      ]),
    ).toBe(0);
  });

  it.each([
    [
      'a URL without a scheme',
      `hookline.http_post('example.com/hook')`,
      /url must be an absolute http:\/\/ or https:\/\/ URL.*'example.com\/hook'/,
    ],
    ['an ftp URL', `hookline.http_post('ftp://example.com/')`, /url must be an absolute http/],
    ['a URL with a space', `hookline.http_post('http://exa mple.com/')`, /url must be an absolute http/],
    ['a NULL URL', `hookline.http_post(NULL)`, /url must be an absolute http.*NULL/],
    ['a NULL body', `hookline.http_post('http://127.0.0.1/x', NULL)`, /body must not be NULL/],
    [
      'another content type',
      `hookline.http_post('http://127.0.0.1/x', headers := '{"Content-Type": "text/plain"}')`,
      /Content-Type header must be "application\/json"/,
    ],
    [
      'a non-string header',
      `hookline.http_post('http://127.0.0.1/x', headers := '{"X-N": 1}')`,
      /header 'x-n' must be a string/,
    ],
    [
      'a URL with a user and password',
      `hookline.http_post('https://user:hunter2@example.com/x')`,
      /url must not contain credentials \(user:password@\)$/,
    ],
    ['a URL with a user', `hookline.http_post('https://user@example.com/x')`, /url must not contain credentials/],
    [
      'a URL longer than 2048 characters',
      `hookline.http_post('https://example.com/' || repeat('x', 2029))`,
      /url must be at most 2048 characters, got 2049/,
    ],
    [
      'CR/LF in a header value',
      `hookline.http_post('https://example.com/x', headers := jsonb_build_object('X-A', E'a\\r\\nX-Injected: 1'))`,
      /header 'x-a' must not contain CR or LF/,
    ],
    [
      'LF in a header value',
      `hookline.http_post('https://example.com/x', headers := '{"X-A": "a\\nb"}')`,
      /header 'x-a' must not contain CR or LF/,
    ],
    [
      'a control character in a header value',
      `hookline.http_post('https://example.com/x', headers := '{"X-A": "a\\u0007b"}')`,
      /header 'x-a' must not contain control characters/,
    ],
    [
      'a header name with a space',
      `hookline.http_post('https://example.com/x', headers := '{"X A": "v"}')`,
      /header 'x a' is not a valid header name/,
    ],
    [
      'a header given twice in two spellings',
      `hookline.http_post('https://example.com/x', headers := '{"X-A": "1", "x-a": "2"}')`,
      /header 'x-a' is given twice/,
    ],
    [
      'a header value longer than 4096 characters',
      `hookline.http_post('https://example.com/x', headers := jsonb_build_object('X-A', repeat('v', 4097)))`,
      /header 'x-a' must be at most 4096 characters/,
    ],
    [
      '51 headers',
      `hookline.http_post('https://example.com/x', headers := (SELECT jsonb_object_agg('X-H' || n, 'v') FROM generate_series(1, 51) AS n))`,
      /headers must not hold more than 50 headers/,
    ],
    [
      'params that are not an object',
      `hookline.http_post('http://127.0.0.1/x', params := '[1]')`,
      /params must be a JSON object/,
    ],
    [
      'a zero timeout',
      `hookline.http_post('http://127.0.0.1/x', timeout_milliseconds := 0)`,
      /timeout_milliseconds must be from 1 to 300000, got 0/,
    ],
  ])('refuses %s with an error that says so, recording nothing', async (_label, call, message) => {
    const before = await countRows(db.pool, 'messages');
    await expect(db.pool.query(`SELECT ${call}`)).rejects.toThrow(message);
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });
});

describe('waking sleeping workers', () => {
  it('wakes sleeping workers itself, as hookline.send does: once per transaction, and not while one polls', async () => {
    // No trigger on hookline.messages since migration 20261130100000_wake_in_producers: http_post and
    // http_get call hookline.wake_sleeping_workers().
    const listener = await db.pool.connect();
    let notifications = 0;
    listener.on('notification', () => notifications++);
    await listener.query('LISTEN hookline_deliveries');
    const during = async (sql: string) => {
      const before = notifications;
      await db.pool.query(sql, [`${receiver.url}/woken`]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return notifications - before;
    };
    try {
      expect(await during('SELECT hookline.http_post($1)')).toBe(1);
      expect(await during('SELECT hookline.http_get($1)')).toBe(1);
      expect(await during('SELECT hookline.http_post($1) FROM generate_series(1, 3)')).toBe(1);
      await db.pool.query(
        `INSERT INTO hookline.polling_workers (worker_id, until) VALUES ('busy-worker', now() + interval '1 minute')`,
      );
      expect(await during('SELECT hookline.http_post($1)')).toBe(0);
    } finally {
      await db.pool.query('DELETE FROM hookline.polling_workers');
      await listener.query('UNLISTEN *');
      listener.release();
    }
  });
});
