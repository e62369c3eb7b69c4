// hookline._http_response and hookline.http_collect_response: pg_net's way of reading responses, over
// Hookline's deliveries and attempts. A real worker sends to real receivers that succeed, fail, refuse
// and hang; the view and the function must say what happened to each request.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { deliveriesOf } from '../support/deliveries';
import { startReceiver, startTcpListener, waitUntil, type Receiver, type TcpListener } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let receiver: Receiver;
let silent: TcpListener;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver((request, response) => {
    if (request.path.startsWith('/fail')) response.writeHead(500, { 'content-type': 'text/plain' }).end('broken');
    else if (
      request.path.startsWith('/flaky') &&
      !receiver.requests.some((r) => r !== request && r.path === request.path)
    )
      response.writeHead(503).end('busy');
    else response.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'test' }).end('{"ok":true}');
  });
  // Accepts connections and never answers.
  silent = await startTcpListener();
});

afterEach(async () => {
  await stopTestWorkers();
});

afterAll(async () => {
  await receiver.close();
  await silent.close();
});

async function call<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, params)).rows as T[];
}

async function requestId(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await call<{ id: string }>(`SELECT ${sql} AS id`, params);
  return Number(row!.id);
}

async function finished(ids: number[]): Promise<void> {
  await waitUntil(
    async () => {
      const rows = await deliveriesOf(
        db.pool,
        `message_id IN (SELECT hookline.public_id('msg', id) FROM hookline.messages WHERE request_id = ANY($1::bigint[]))
         AND state IN ('succeeded', 'dead')`,
        [ids],
      );
      return rows.length === ids.length;
    },
    { what: `requests ${ids.join(', ')} finished`, timeoutMs: 15_000 },
  );
}

async function responseOf(id: number) {
  const rows = await call(`SELECT * FROM hookline._http_response WHERE id = $1`, [id]);
  return rows;
}

interface Collected {
  status: string;
  message: string;
  response: { status_code: number | null; headers: Record<string, string> | null; body: string | null } | null;
}

async function collect(id: number, async = true, pool: pg.Pool | pg.Client = db.pool): Promise<Collected> {
  const { rows } = await pool.query<Collected>(
    `SELECT status, message,
            CASE WHEN NOT (response IS NULL) THEN
              jsonb_build_object('status_code', (response).status_code, 'headers', (response).headers,
                                 'body', (response).body) END AS response
       FROM hookline.http_collect_response($1, $2)`,
    [id, async],
  );
  return rows[0]!;
}

describe('hookline._http_response', () => {
  it("has exactly net._http_response's columns", async () => {
    const columns = await call(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
         FROM pg_attribute a WHERE a.attrelid = 'hookline._http_response'::regclass AND a.attnum > 0
        ORDER BY a.attnum`,
    );
    expect(columns).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'status_code', type: 'integer' },
      { name: 'content_type', type: 'text' },
      { name: 'headers', type: 'jsonb' },
      { name: 'content', type: 'text' },
      { name: 'timed_out', type: 'boolean' },
      { name: 'error_msg', type: 'text' },
      { name: 'created', type: 'timestamp with time zone' },
    ]);
  });

  it("shows each request's latest attempt, with Hookline's error class in error_msg", async () => {
    const closed = await startTcpListener();
    const refusedPort = closed.port;
    await closed.close();

    const ok = await requestId(`hookline.http_post($1)`, [`${receiver.url}/ok`]);
    const fail = await requestId(`hookline.http_get($1)`, [`${receiver.url}/fail`]);
    const refused = await requestId(`hookline.http_delete($1)`, [`http://127.0.0.1:${refusedPort}/gone`]);
    const hung = await requestId(`hookline.http_post($1, timeout_milliseconds := 300)`, [
      `http://127.0.0.1:${silent.port}/hang`,
    ]);
    const flaky = await requestId(`hookline.http_post($1)`, [`${receiver.url}/flaky`]);
    // Not attempted yet: no row, as pg_net has none before a response.
    expect(await call(`SELECT count(*)::int AS n FROM hookline._http_response`)).toEqual([{ n: 0 }]);

    await startTestWorker(db.url, { retrySchedule: [0, 50] });
    await finished([ok, fail, refused, hung, flaky]);

    // A success kept on its delivery row: status and time, no response headers or body.
    const [okRow] = await responseOf(ok);
    expect(okRow).toMatchObject({
      id: ok,
      status_code: 200,
      content_type: null,
      headers: null,
      content: null,
      timed_out: false,
      error_msg: null,
    });
    expect(okRow!.created).toBeInstanceOf(Date);
    // Failed twice with 500: the last attempt's response, and the error as Hookline classed it.
    expect(await responseOf(fail)).toMatchObject([
      {
        status_code: 500,
        content_type: 'text/plain',
        content: 'broken',
        timed_out: false,
        error_msg: 'http_5xx: HTTP 500',
      },
    ]);
    const [refusedRow] = await responseOf(refused);
    expect(refusedRow).toMatchObject({ status_code: null, timed_out: false, content: null });
    expect(refusedRow!.error_msg).toMatch(/^connect_refused: .*ECONNREFUSED/);
    const [hungRow] = await responseOf(hung);
    expect(hungRow).toMatchObject({ status_code: null, timed_out: true });
    expect(hungRow!.error_msg).toMatch(/^timeout: /);
    // 503 first, then 200: the latest attempt is the success.
    expect(await responseOf(flaky)).toMatchObject([{ status_code: 200, error_msg: null }]);

    // The pg_net benchmark's diagnostic query, unchanged but for the schema.
    const summary = await call(
      `SELECT count(id), status_code, error_msg FROM hookline._http_response
        GROUP BY status_code, error_msg ORDER BY 1 DESC, 2 NULLS LAST`,
    );
    expect(summary).toHaveLength(4);
    expect(summary[0]).toEqual({ count: 2, status_code: 200, error_msg: null });
    expect(summary.map((row) => row.error_msg)).toContain('http_5xx: HTTP 500');

    expect(await collect(ok)).toEqual({
      status: 'SUCCESS',
      message: 'ok',
      response: { status_code: 200, headers: null, body: null },
    });
    expect(await collect(fail)).toEqual({
      status: 'ERROR',
      message: 'failed after 2 attempt(s): http_5xx: HTTP 500',
      response: {
        status_code: 500,
        headers: expect.objectContaining({ 'content-type': 'text/plain' }),
        body: 'broken',
      },
    });
    expect(await collect(refused)).toMatchObject({
      status: 'ERROR',
      message: expect.stringMatching(/^failed after 2 attempt\(s\): connect_refused: /),
      response: null,
    });
  });

  it('keeps the response headers and body of a success when HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS does', async () => {
    const id = await requestId(`hookline.http_get($1)`, [`${receiver.url}/kept`]);
    await startTestWorker(db.url, { keepSuccessfulAttempts: true });
    await finished([id]);
    expect(await responseOf(id)).toMatchObject([
      {
        status_code: 200,
        content_type: 'application/json',
        headers: expect.objectContaining({ 'x-served-by': 'test' }),
        content: '{"ok":true}',
        error_msg: null,
      },
    ]);
    expect(await collect(id)).toMatchObject({
      status: 'SUCCESS',
      response: { status_code: 200, body: '{"ok":true}', headers: expect.objectContaining({ 'x-served-by': 'test' }) },
    });
  });
});

describe('hookline.http_collect_response', () => {
  it('has the signature of pg_net net.http_collect_response and its result type', async () => {
    expect(
      await call(
        `SELECT pg_get_function_arguments('hookline.http_collect_response'::regproc) AS args,
                pg_get_function_result('hookline.http_collect_response'::regproc) AS result`,
      ),
    ).toEqual([{ args: 'request_id bigint, async boolean DEFAULT true', result: 'hookline.http_response_result' }]);
    expect(
      await call(
        `SELECT t.typname AS type, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS field_type
           FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid
          WHERE t.oid IN ('hookline.http_response_result'::regtype, 'hookline.http_response'::regtype)
            AND a.attnum > 0
          ORDER BY t.typname, a.attnum`,
      ),
    ).toEqual([
      { type: 'http_response', name: 'status_code', field_type: 'integer' },
      { type: 'http_response', name: 'headers', field_type: 'jsonb' },
      { type: 'http_response', name: 'body', field_type: 'text' },
      { type: 'http_response_result', name: 'status', field_type: 'hookline.request_status' },
      { type: 'http_response_result', name: 'message', field_type: 'text' },
      { type: 'http_response_result', name: 'response', field_type: 'hookline.http_response' },
    ]);
    expect(await call(`SELECT enum_range(NULL::hookline.request_status)::text AS values`)).toEqual([
      { values: '{PENDING,SUCCESS,ERROR}' },
    ]);
  });

  it('answers ERROR for an unknown id and PENDING for a request not yet sent', async () => {
    expect(await collect(987_654)).toEqual({
      status: 'ERROR',
      message: 'request matching request_id not found',
      response: null,
    });
    const id = await requestId(`hookline.http_post($1)`, [`${receiver.url}/later`]);
    expect(await collect(id)).toEqual({ status: 'PENDING', message: 'queued; not yet attempted', response: null });
  });

  it('answers PENDING while the first attempt is in flight, which has no delivery row until its outcome', async () => {
    const id = await requestId(`hookline.http_post($1)`, [`http://127.0.0.1:${silent.port}/in-flight`]);
    await startTestWorker(db.url);
    // Seen within the attempt's 2 s timeout: the fan-out's batch row holds the attempt, and its delivery
    // row is written with the outcome (migration 20261206090000_first_attempts_written_once).
    const seen = await waitUntil(
      async () => {
        const result = await collect(id);
        if (result.message !== 'first attempt in flight') return false;
        const rows = await deliveriesOf(
          db.pool,
          `message_id IN (SELECT hookline.public_id('msg', id) FROM hookline.messages WHERE request_id = $1)`,
          [id],
        );
        return { result, rows: rows.length };
      },
      { what: 'the first attempt in flight', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(seen).toEqual({
      result: { status: 'PENDING', message: 'first attempt in flight', response: null },
      rows: 0,
    });
  });

  it('waits for the result with async := false, and refuses to wait for its own transaction', async () => {
    const id = await requestId(`hookline.http_post($1, '{"wait": true}')`, [`${receiver.url}/waited`]);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const waiting = collect(id, false, client);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await startTestWorker(db.url);
      expect(await waiting).toMatchObject({ status: 'SUCCESS', message: 'ok', response: { status_code: 200 } });

      await client.query('BEGIN');
      const [{ id: mine }] = (await client.query<{ id: string }>(`SELECT hookline.http_get($1) AS id`, [receiver.url]))
        .rows as [{ id: string }];
      await expect(collect(Number(mine), false, client)).rejects.toThrow(/recorded in this transaction/);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
