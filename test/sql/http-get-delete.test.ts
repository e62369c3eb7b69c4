// hookline.http_get and hookline.http_delete, pg_net's other two request functions: the same names,
// parameters and defaults as net.http_get / net.http_delete, and a real worker sends what they record
// with the method asked for, signed, retried and guarded like every delivery.
import { Webhook } from 'standardwebhooks';
import { decryptSecret } from '../../lib/runtime/secret-box';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { attemptsOf, deliveriesOf, fanOutQueued } from '../support/deliveries';
import { countRows } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let receiver: Receiver;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver();
});

afterEach(async () => {
  await stopTestWorkers();
  receiver.respond(answer(200, 'ok'));
});

afterAll(async () => {
  await receiver.close();
});

async function requestId(call: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ id: string }>(`SELECT ${call} AS id`, params);
  return Number(rows[0]!.id);
}

/** The one delivery of a request, once it is finished. */
async function finishedDelivery(id: number) {
  return waitUntil(
    async () => {
      const [row] = await deliveriesOf(
        db.pool,
        `message_id = (SELECT hookline.public_id('msg', id) FROM hookline.messages WHERE request_id = $1)
          AND state IN ('succeeded', 'dead')`,
        [id],
      );
      return row;
    },
    { what: `request ${id} finished` },
  );
}

async function secretOf(id: number): Promise<string> {
  const { rows } = await db.pool.query<{ secret: string }>(
    `SELECT s.secret FROM hookline.endpoint_secrets s
       JOIN hookline.messages m ON m.target_endpoint_id = s.endpoint_id
      WHERE m.request_id = $1`,
    [id],
  );
  // Plaintext as SQL wrote it, or encrypted once a worker's maintenance has sealed it.
  return decryptSecret(rows[0]!.secret);
}

describe('hookline.http_get and hookline.http_delete', () => {
  it('have the signatures of pg_net 0.20 net.http_get and net.http_delete', async () => {
    const { rows } = await db.pool.query<{ name: string; args: string; result: string }>(
      `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS args, pg_get_function_result(p.oid) AS result
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'hookline' AND p.proname IN ('http_get', 'http_delete') ORDER BY p.proname`,
    );
    expect(rows).toEqual([
      {
        name: 'http_delete',
        args:
          `url text, params jsonb DEFAULT '{}'::jsonb, headers jsonb DEFAULT '{}'::jsonb, ` +
          `timeout_milliseconds integer DEFAULT 5000, body jsonb DEFAULT NULL::jsonb`,
        result: 'bigint',
      },
      {
        name: 'http_get',
        args:
          `url text, params jsonb DEFAULT '{}'::jsonb, headers jsonb DEFAULT '{}'::jsonb, ` +
          `timeout_milliseconds integer DEFAULT 5000`,
        result: 'bigint',
      },
    ]);
  });

  it('sends a GET without a body and DELETEs with and without one, each signed over what it sent', async () => {
    const get = await requestId(
      `hookline.http_get($1, params := '{"q": "a b"}', headers := '{"Authorization": "Bearer t1"}')`,
      [`${receiver.url}/items`],
    );
    const deleteWithout = await requestId(`hookline.http_delete($1)`, [`${receiver.url}/items/7`]);
    const deleteWith = await requestId(`hookline.http_delete($1, body := '{"reason": "gone"}')`, [
      `${receiver.url}/items/8`,
    ]);
    // Request ids come from the sequence hookline.http_post uses.
    const post = await requestId(`hookline.http_post($1, '{"n": 1}')`, [`${receiver.url}/items`]);
    expect([get, deleteWithout, deleteWith, post]).toEqual([get, get + 1, get + 2, get + 3]);

    await startTestWorker(db.url);
    await receiver.waitForRequests(4);
    for (const id of [get, deleteWithout, deleteWith, post])
      expect((await finishedDelivery(id)).state).toBe('succeeded');

    const byPath = (path: string, method: string) =>
      receiver.requests.find((request) => request.path === path && request.method === method)!;
    const sentGet = byPath('/items?q=a%20b', 'GET');
    expect(sentGet.body).toBe('');
    expect(sentGet.headers['content-length']).toBeUndefined();
    expect(sentGet.headers['content-type']).toBeUndefined();
    expect(sentGet.headers.authorization).toBe('Bearer t1');
    const getSecret = await secretOf(get);
    expect(() => new Webhook(getSecret).verify('', sentGet.headers)).not.toThrow();

    const sentDeleteWithout = byPath('/items/7', 'DELETE');
    expect(sentDeleteWithout.body).toBe('');
    expect(sentDeleteWithout.headers['content-type']).toBeUndefined();
    const deleteWithoutSecret = await secretOf(deleteWithout);
    expect(() => new Webhook(deleteWithoutSecret).verify('', sentDeleteWithout.headers)).not.toThrow();

    const sentDeleteWith = byPath('/items/8', 'DELETE');
    expect(JSON.parse(sentDeleteWith.body)).toEqual({ reason: 'gone' });
    expect(sentDeleteWith.headers['content-type']).toBe('application/json');
    const deleteWithSecret = await secretOf(deleteWith);
    expect(() => new Webhook(deleteWithSecret).verify(sentDeleteWith.body, sentDeleteWith.headers)).not.toThrow();

    // The POST to the same URL as the GET is another endpoint, still POSTed.
    const sentPost = byPath('/items', 'POST');
    expect(JSON.parse(sentPost.body)).toEqual({ n: 1 });
  });

  it('makes one implicit endpoint per method, URL, headers and timeout, and finds each again', async () => {
    const url = `${receiver.url}/same`;
    await requestId(`hookline.http_post($1)`, [url]);
    await requestId(`hookline.http_get($1)`, [url]);
    await requestId(`hookline.http_delete($1)`, [url]);
    await requestId(`hookline.http_get($1)`, [url]);
    await requestId(`hookline.http_delete($1, body := '{"x": 1}')`, [url]);
    await requestId(`hookline.http_post($1)`, [url]);
    const { rows } = await db.pool.query<{ method: string; event_types: string[]; implicit: boolean }>(
      `SELECT method, event_types, implicit FROM hookline.endpoints WHERE url = $1 ORDER BY method`,
      [url],
    );
    expect(rows).toEqual([
      { method: 'DELETE', event_types: ['http_delete'], implicit: true },
      { method: 'GET', event_types: ['http_get'], implicit: true },
      { method: 'POST', event_types: ['http_post'], implicit: true },
    ]);
    // A body for GET cannot be asked for; a DELETE without one is stored as JSON null.
    const { rows: payloads } = await db.pool.query<{ event_type: string; payload: unknown }>(
      `SELECT m.event_type, m.payload FROM hookline.messages m JOIN hookline.endpoints e ON e.id = m.target_endpoint_id
        WHERE e.url = $1 ORDER BY m.request_id`,
      [url],
    );
    expect(payloads).toEqual([
      { event_type: 'http_post', payload: {} },
      { event_type: 'http_get', payload: null },
      { event_type: 'http_delete', payload: null },
      { event_type: 'http_get', payload: null },
      { event_type: 'http_delete', payload: { x: 1 } },
      { event_type: 'http_post', payload: {} },
    ]);
  });

  it('retries a failed GET and logs the failed attempt', async () => {
    let calls = 0;
    receiver.respond((request, response) => {
      // Earlier tests' requests may still be queued: only this path fails once.
      if (request.path === '/flaky') calls++;
      response.writeHead(calls === 1 ? 503 : 200).end(calls === 1 ? 'busy' : 'ok');
    });
    const id = await requestId(`hookline.http_get($1)`, [`${receiver.url}/flaky`]);
    await startTestWorker(db.url, { retrySchedule: [0, 50] });
    const delivery = await finishedDelivery(id);
    expect(delivery).toMatchObject({ state: 'succeeded', attempt_count: 2, last_status_code: 200 });
    const attempts = await attemptsOf(db.pool, delivery.id);
    expect(attempts).toMatchObject([{ attempt_number: 1, status_code: 503, error_class: 'http_5xx' }]);
    expect(receiver.requests.filter((request) => request.path === '/flaky').map((r) => r.method)).toEqual([
      'GET',
      'GET',
    ]);
  });

  it('refuses a loopback DELETE when the address policy does not allow it', async () => {
    const id = await requestId(`hookline.http_delete($1)`, [`${receiver.url}/blocked`]);
    const before = receiver.requests.length;
    await startTestWorker(db.url, { retrySchedule: [0], addressPolicy: { allowLoopback: false, allowPrivate: false } });
    const delivery = await finishedDelivery(id);
    expect(delivery).toMatchObject({ state: 'dead', last_error_class: 'blocked_address' });
    expect(receiver.requests.length).toBe(before);
  });

  it.each([
    ['a URL without a scheme', `hookline.http_get('example.com/x')`, /hookline.http_get: url must be an absolute http/],
    ['a NULL URL', `hookline.http_delete(NULL)`, /hookline.http_delete: url must be an absolute http.*NULL/],
    [
      'a non-string header',
      `hookline.http_get('http://127.0.0.1/x', headers := '{"X-N": 1}')`,
      /hookline.http_get: header 'x-n' must be a string/,
    ],
    [
      'params that are not an object',
      `hookline.http_delete('http://127.0.0.1/x', params := '[1]')`,
      /hookline.http_delete: params must be a JSON object/,
    ],
    [
      'credentials in the URL',
      `hookline.http_get('https://user:secret@example.com/x')`,
      /hookline.http_get: url must not contain credentials \(user:password@\)$/,
    ],
    [
      'a line break in a header value',
      `hookline.http_delete('http://127.0.0.1/x', headers := jsonb_build_object('X-A', 'a' || chr(13) || chr(10) || 'X-B: b'))`,
      /hookline.http_delete: header 'x-a' must not contain CR or LF/,
    ],
    [
      'one header in two spellings',
      `hookline.http_get('http://127.0.0.1/x', headers := '{"X-A": "1", "x-a": "2"}')`,
      /hookline.http_get: header 'x-a' is given twice/,
    ],
    [
      'a header name that is not a token',
      `hookline.http_get('http://127.0.0.1/x', headers := '{"X A": "1"}')`,
      /hookline.http_get: header 'x a' is not a valid header name/,
    ],
    [
      'a zero timeout',
      `hookline.http_get('http://127.0.0.1/x', timeout_milliseconds := 0)`,
      /hookline.http_get: timeout_milliseconds must be from 1 to 300000, got 0/,
    ],
  ])('refuses %s with an error that says so, recording nothing', async (_label, call, message) => {
    const before = await countRows(db.pool, 'messages');
    await expect(db.pool.query(`SELECT ${call}`)).rejects.toThrow(message);
    expect(await countRows(db.pool, 'messages')).toBe(before);
  });

  it('records nothing when the caller rolls back', async () => {
    const url = `${receiver.url}/rolled-back`;
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT hookline.http_get($1), hookline.http_delete($1)`, [url]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await fanOutQueued(db.pool);
    expect(await countRows(db.pool, 'endpoints', 'url = $1', [url])).toBe(0);
  });
});
