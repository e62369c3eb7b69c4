// Every way in accepts the same things (issue 26). One table of inputs goes through SQL and through REST:
// a message's payload and idempotency key through hookline.send and POST /apps/{app}/messages, an
// endpoint's URL and headers through hookline.http_post and POST /apps/{app}/endpoints. Each row must be
// accepted by both or refused by both, and each refusal must name what is wrong in both messages. The
// few deliberate differences are listed last, each with its reason, so that a new one cannot pass unseen.
import { beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError } from 'pg';
import { countRows, createApp, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext, type CallResult } from './support/api';

let ctx: ApiTestContext;
// One app per way in, so that an idempotency key used by one row through SQL is new to REST.
let sqlApp: string;
let restApp: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  sqlApp = await createApp(ctx.db.pool, 'through SQL');
  restApp = await createApp(ctx.db.pool, 'through REST');
  for (const app of [sqlApp, restApp]) await createEventType(ctx.db.pool, app, 'invoice.paid');
});

const LIMIT = 1_048_576; // HOOKLINE_MAX_PAYLOAD_BYTES, the default in both
const blob = (bytes: number) => JSON.stringify({ blob: 'x'.repeat(bytes - 20) });
const manyHeaders = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`X-H${i}`, 'v']));

interface Outcome {
  accepted: boolean;
  message: string;
}

/** What both ways say about a row: `refused` lists words that both refusals must contain. */
interface Row {
  refused?: string[];
}

interface MessageRow extends Row {
  /** The payload as JSON text, exactly as each way receives it. */
  payload: string;
  key?: string;
}

const messageRows: Record<string, MessageRow> = {
  'an empty object': { payload: '{}' },
  'an object of every JSON type': { payload: '{"a": 1, "b": {"list": [1.5, "two", null, true, false]}}' },
  'text in every UTF-8 length': { payload: '{"s": "é € 𝄞 ✓"}' },
  'a payload just under the limit': { payload: blob(LIMIT - 200) },
  'a string payload': { payload: '"str"', refused: ['payload', 'must be a JSON object', 'string'] },
  'an array payload': { payload: '[1, 2]', refused: ['payload', 'must be a JSON object', 'array'] },
  'a number payload': { payload: '123', refused: ['payload', 'must be a JSON object', 'number'] },
  'a JSON null payload': { payload: 'null', refused: ['payload', 'must be a JSON object', 'null'] },
  'a boolean payload': { payload: 'true', refused: ['payload', 'must be a JSON object', 'boolean'] },
  'a NUL character': { payload: '{"s": "a\\u0000b"}', refused: ['\\u0000'] },
  'a payload over the limit': { payload: blob(LIMIT + 1000), refused: [`${LIMIT} bytes`] },
  'an idempotency key': { payload: '{}', key: 'in_77-paid' },
  'a 256-character idempotency key': { payload: '{}', key: 'k'.repeat(256) },
  'an idempotency key of the first and last printable characters': { payload: '{}', key: '!~' },
  'an empty idempotency key': { payload: '{}', key: '', refused: ['idempotency', 'must be 1 to 256 characters'] },
  'a 257-character idempotency key': {
    payload: '{}',
    key: 'k'.repeat(257),
    refused: ['idempotency', 'must be 1 to 256 characters'],
  },
  'an idempotency key with a tab': {
    payload: '{}',
    key: 'in\t77',
    refused: ['idempotency', 'must be printable ASCII without spaces'],
  },
  'an idempotency key with a space': {
    payload: '{}',
    key: 'in 77',
    refused: ['idempotency', 'must be printable ASCII without spaces'],
  },
  'an idempotency key with a non-ASCII letter': {
    payload: '{}',
    key: 'clé',
    refused: ['idempotency', 'must be printable ASCII without spaces'],
  },
  'an idempotency key with DEL': {
    payload: '{}',
    key: 'in\x7f77',
    refused: ['idempotency', 'must be printable ASCII without spaces'],
  },
};

interface EndpointRow extends Row {
  url: string;
  headers?: Record<string, unknown>;
}

const endpointRows: Record<string, EndpointRow> = {
  'a URL': { url: 'https://example.com/hooks' },
  'a URL with a port, a query and a fragment': { url: 'http://example.com:8080/hooks?tenant=1#x' },
  'custom headers': { url: 'https://example.com/h1', headers: { Authorization: 'Bearer t', 'X-Tenant': 'acme' } },
  'a tab inside a header value': { url: 'https://example.com/h2', headers: { 'X-A': 'a\tb' } },
  // Latin-1 (U+0080 to U+00FF) goes out as one byte a character, as undici sends it.
  'Latin-1 letters in a header value': { url: 'https://example.com/h2b', headers: { 'X-City': 'Malmö, Besançon' } },
  '50 headers': { url: 'https://example.com/h3', headers: manyHeaders(50) },
  'a 256-character header name and a 4096-character value': {
    url: 'https://example.com/h4',
    headers: { ['X'.repeat(256)]: 'v'.repeat(4096) },
  },
  'an ftp URL': { url: 'ftp://example.com/hooks', refused: ['url', 'http'] },
  'a URL without a scheme': { url: 'example.com/hooks', refused: ['url'] },
  'a URL with a user and password': { url: 'https://user:hunter2@example.com/', refused: ['url', 'credentials'] },
  'a URL with a user': { url: 'https://user@example.com/', refused: ['url', 'credentials'] },
  'a URL with a space': { url: 'https://example.com/a b', refused: ['url', 'spaces'] },
  'a URL with a tab': { url: 'https://exa\tmple.com/', refused: ['url', 'spaces'] },
  'a URL with a newline': { url: 'https://example.com/\nx', refused: ['url', 'spaces'] },
  'a URL longer than 2048 characters': {
    url: `https://example.com/${'x'.repeat(2029)}`,
    refused: ['url', '2048'],
  },
  'CR/LF in a header value': {
    url: 'https://example.com/h5',
    headers: { 'X-A': 'a\r\nX-Injected: 1' },
    refused: ['x-a', 'must not contain CR or LF'],
  },
  'LF in a header value': {
    url: 'https://example.com/h6',
    headers: { 'X-A': 'a\nb' },
    refused: ['x-a', 'must not contain CR or LF'],
  },
  'a control character in a header value': {
    url: 'https://example.com/h7',
    headers: { 'X-A': 'a\u0007b' },
    refused: ['x-a', 'must not contain control characters'],
  },
  // Refused by undici while building the request, which left the endpoint's connection marked busy.
  'a letter above U+00FF in a header value': {
    url: 'https://example.com/h7b',
    headers: { 'X-City': 'Łódź' },
    refused: ['x-city', 'must not contain characters above U+00FF'],
  },
  'an en dash in a header value': {
    url: 'https://example.com/h7c',
    headers: { 'X-A': 'a – b' },
    refused: ['x-a', 'must not contain characters above U+00FF'],
  },
  'an emoji in a header value': {
    url: 'https://example.com/h7d',
    headers: { 'X-A': 'ok 👍' },
    refused: ['x-a', 'must not contain characters above U+00FF'],
  },
  'a header name with a space': {
    url: 'https://example.com/h8',
    headers: { 'X A': 'v' },
    refused: ['x a', 'is not a valid header name'],
  },
  'a header name with a colon': {
    url: 'https://example.com/h9',
    headers: { 'X-A: b': 'v' },
    refused: ['x-a: b', 'is not a valid header name'],
  },
  'a 257-character header name': {
    url: 'https://example.com/h10',
    headers: { ['X'.repeat(257)]: 'v' },
    refused: ['name must be at most 256 characters'],
  },
  'a 4097-character header value': {
    url: 'https://example.com/h11',
    headers: { 'X-A': 'v'.repeat(4097) },
    refused: ['x-a', 'must be at most 4096 characters'],
  },
  '51 headers': { url: 'https://example.com/h12', headers: manyHeaders(51), refused: ['headers', '50 headers'] },
  'a header given twice in two spellings': {
    url: 'https://example.com/h13',
    headers: { 'X-A': '1', 'x-a': '2' },
    refused: ['x-a', 'is given twice'],
  },
  'a header value that is not a string': {
    url: 'https://example.com/h14',
    headers: { 'X-N': 1 },
    refused: ['x-n', 'string'],
  },
};

async function throughSql(statement: string, params: unknown[]): Promise<Outcome> {
  try {
    await ctx.db.pool.query(statement, params);
    return { accepted: true, message: '' };
  } catch (error) {
    if (!(error instanceof DatabaseError)) throw error;
    return { accepted: false, message: `${error.message} ${error.detail ?? ''}` };
  }
}

function throughRest(response: CallResult, acceptedStatus: number): Outcome {
  if (response.status === acceptedStatus) return { accepted: true, message: '' };
  // A refusal is the client's mistake, never a 5xx.
  expect(response.status, response.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(response.status, response.text.slice(0, 300)).toBeLessThan(500);
  return { accepted: false, message: String(response.body?.error?.message) };
}

const sendThroughSql = (row: MessageRow) =>
  throughSql(`SELECT hookline.send($1, 'invoice.paid', $2::jsonb, $3)`, [sqlApp, row.payload, row.key ?? null]);

const sendThroughRest = async (row: MessageRow) =>
  throughRest(
    await call('POST', `/v1/apps/${restApp}/messages`, {
      key: ctx.adminKey,
      rawBody: `{"eventType": "invoice.paid", "payload": ${row.payload}}`,
      headers: { 'content-type': 'application/json', ...(row.key === undefined ? {} : { 'idempotency-key': row.key }) },
    }),
    202,
  );

const postThroughSql = (row: EndpointRow) =>
  throughSql(`SELECT hookline.http_post(url := $1, headers := $2::jsonb)`, [
    row.url,
    JSON.stringify(row.headers ?? {}),
  ]);

const postThroughRest = async (row: EndpointRow) =>
  throughRest(
    await call('POST', `/v1/apps/${restApp}/endpoints`, {
      key: ctx.adminKey,
      body: { url: row.url, ...(row.headers ? { headers: row.headers } : {}) },
    }),
    201,
  );

function expectAgreement(label: string, row: Row, sql: Outcome, rest: Outcome): void {
  expect(sql.accepted, `${label} through SQL: ${sql.message}`).toBe(!row.refused);
  expect(rest.accepted, `${label} through REST: ${rest.message}`).toBe(!row.refused);
  for (const words of row.refused ?? []) {
    expect(sql.message.toLowerCase(), `${label}: the SQL refusal names it`).toContain(words.toLowerCase());
    expect(rest.message.toLowerCase(), `${label}: the REST refusal names it`).toContain(words.toLowerCase());
  }
}

describe('a message through hookline.send and through POST /apps/{app}/messages', () => {
  it.each(Object.entries(messageRows))('%s: both accept it or both refuse it, saying why', async (label, row) => {
    const before = await countRows(ctx.db.pool, 'messages');
    const sql = await sendThroughSql(row);
    const rest = await sendThroughRest(row);
    expectAgreement(label, row, sql, rest);
    if (row.refused) expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });
});

describe('an endpoint through hookline.http_post and through POST /apps/{app}/endpoints', () => {
  it.each(Object.entries(endpointRows))('%s: both accept it or both refuse it, saying why', async (label, row) => {
    const before = await countRows(ctx.db.pool, 'endpoints');
    const sql = await postThroughSql(row);
    const rest = await postThroughRest(row);
    expectAgreement(label, row, sql, rest);
    if (row.refused) expect(await countRows(ctx.db.pool, 'endpoints')).toBe(before);
  });
});

describe('the deliberate differences', () => {
  it('a number JavaScript cannot hold: SQL keeps its digits, REST refuses it naming where it is', async () => {
    // The REST API parses bodies with JSON.parse, which would change it; jsonb keeps the digits and the
    // worker sends the payload as stored (payload::text).
    const row = { payload: '{"a": 1e999, "b": 9007199254740993}' };
    const sent = await ctx.db.pool.query<{ id: string }>(`SELECT hookline.send($1, 'invoice.paid', $2::jsonb) AS id`, [
      sqlApp,
      row.payload,
    ]);
    const { rows } = await ctx.db.pool.query<{ payload: string }>(
      'SELECT payload::text AS payload FROM hookline.messages WHERE id = hookline.uuid_of($1)',
      [sent.rows[0]!.id],
    );
    expect(rows[0]!.payload).toContain('9007199254740993');
    const rest = await sendThroughRest(row);
    expect(rest.accepted).toBe(false);
    expect(rest.message).toContain('payload.a: 1e999 is beyond the range of a JavaScript number');
  });

  it('nesting deeper than 64 levels: REST refuses it before parsing turns into a database error, SQL takes jsonb as built', async () => {
    const row = { payload: `${'{"a": '.repeat(70)}1${'}'.repeat(70)}` };
    expect((await sendThroughSql(row)).accepted).toBe(true);
    const rest = await sendThroughRest(row);
    expect(rest.accepted).toBe(false);
    expect(rest.message).toContain('is nested more than 64 levels deep');
  });

  it('a header Hookline sets itself: REST refuses it, hookline.http_post drops it (pg_net takes it, and an error would roll back the trigger)', async () => {
    for (const headers of [{ Host: 'evil.example' }, { 'Content-Type': 'application/json' }]) {
      const row = { url: 'https://example.com/reserved', headers };
      expect((await postThroughSql(row)).accepted).toBe(true);
      const rest = await postThroughRest(row);
      expect(rest.accepted).toBe(false);
      expect(rest.message).toContain('is set by Hookline and cannot be overridden');
    }
    const { rows } = await ctx.db.pool.query<{ headers: Record<string, string> }>(
      `SELECT headers FROM hookline.endpoints WHERE url = 'https://example.com/reserved'`,
    );
    expect(rows.map((row) => row.headers)).toEqual([{}, {}]);
  });

  it('a loopback or private address: REST refuses it at creation, hookline.http_post records it and the worker refuses to connect', async () => {
    const row = { url: 'http://10.1.2.3/hook' };
    expect((await postThroughSql(row)).accepted).toBe(true);
    const rest = await postThroughRest(row);
    expect(rest.accepted).toBe(false);
    expect(rest.message).toContain('refused');
  });
});
