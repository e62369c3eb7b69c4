// One list of reserved request headers (lib/domain/webhooks/reserved-headers.ts): the SQL side agrees with it,
// hookline.http_post drops reserved headers (with a NOTICE) instead of storing them, and the worker
// never sends a reserved header that an implicit endpoint stored before this list reached SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
interface Notice {
  message: string;
  hint?: string;
}
import { checkEndpointHeaders } from '../../lib/domain/endpoints/check-endpoint-target';
import { isReservedHeader, RESERVED_HEADER_PREFIX, RESERVED_HEADERS } from '../../lib/domain/webhooks/reserved-headers';
import { buildRequestHeaders, type ClaimedDelivery, type EndpointSettings } from '../../worker/deliver';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

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

// Every reserved name in two spellings, a few webhook-* names, and names that must stay free.
const reservedSamples = [
  ...RESERVED_HEADERS,
  ...RESERVED_HEADERS.map((name) => name.toUpperCase()),
  'webhook-id',
  'Webhook-Signature',
  'WEBHOOK-TIMESTAMP',
  'webhook-anything',
];
const freeSamples = ['authorization', 'user-agent', 'x-api-key', 'x-webhook-id', 'webhook', 'hosts', 'content-types'];

describe('the reserved header list', () => {
  it('is the same list in SQL as in TypeScript', async () => {
    const { rows } = await db.pool.query<{ names: string[]; prefix: string }>(
      'SELECT hookline.reserved_header_names() AS names, hookline.reserved_header_prefix() AS prefix',
    );
    expect(rows[0]!.names).toEqual([...RESERVED_HEADERS]);
    expect(rows[0]!.prefix).toBe(RESERVED_HEADER_PREFIX);
  });

  it('gives the same answer in SQL, in TypeScript and in the API check for every sample name', async () => {
    const names = [...reservedSamples, ...freeSamples];
    const { rows } = await db.pool.query<{ name: string; reserved: boolean }>(
      'SELECT name, hookline.is_reserved_header(name) AS reserved FROM unnest($1::text[]) AS name',
      [names],
    );
    const sql = new Map(rows.map((row) => [row.name, row.reserved]));
    for (const name of names) {
      const expected = reservedSamples.includes(name);
      expect(sql.get(name), `SQL: ${name}`).toBe(expected);
      expect(isReservedHeader(name), `TypeScript: ${name}`).toBe(expected);
      const api = () => checkEndpointHeaders({ [name]: 'value' });
      if (expected) expect(api, `API: ${name}`).toThrow(/is set by Hookline/);
      else expect(api, `API: ${name}`).not.toThrow();
    }
  });

  it('is what the worker leaves out of the request it builds', () => {
    const headers = Object.fromEntries([...reservedSamples, ...freeSamples].map((name) => [name, 'from-endpoint']));
    // A claimed delivery names its message by the stored uuid, as PostgreSQL returns it; the header
    // carries the public id.
    const delivery = { messageId: '01a21f00-a679-142f-4662-f2bf0dc9484c' } as ClaimedDelivery;
    const endpoint = { headers, secrets: ['whsec_' + Buffer.alloc(24, 1).toString('base64')] } as EndpointSettings;
    const built = buildRequestHeaders(delivery, endpoint, '{}', 1_700_000_000, 'Hookline/test');
    for (const name of freeSamples) expect(built[name], name).toBe('from-endpoint');
    for (const name of reservedSamples) expect(built[name.toLowerCase()], name).not.toBe('from-endpoint');
    expect(built['webhook-id']).toBe('msg_01a21f00a679142f4662f2bf0dc9484c');
    expect(built['content-type']).toBe('application/json');
  });
});

describe('hookline.http_post', () => {
  async function callHttpPost(url: string, headers: Record<string, string>) {
    const client = await db.pool.connect();
    const notices: Notice[] = [];
    const onNotice = (notice: { message?: string; hint?: string }) => {
      notices.push({ message: notice.message ?? '', hint: notice.hint });
    };
    client.on('notice', onNotice);
    try {
      const { rows } = await client.query<{ request_id: string }>(
        `SELECT hookline.http_post(url := $1, body := '{"n": 1}'::jsonb, headers := $2::jsonb) AS request_id`,
        [url, JSON.stringify(headers)],
      );
      return { requestId: rows[0]!.request_id, notices };
    } finally {
      client.off('notice', onNotice);
      client.release();
    }
  }

  async function implicitEndpointOf(requestId: string) {
    const { rows } = await db.pool.query<{ id: string; headers: Record<string, string> }>(
      `SELECT e.id, e.headers FROM hookline.messages m JOIN hookline.endpoints e ON e.id = m.target_endpoint_id
        WHERE m.request_id = $1`,
      [requestId],
    );
    return rows[0]!;
  }

  it('drops reserved headers with a NOTICE naming each, keeps the others, and does not fail the caller', async () => {
    const url = `${receiver.url}/sql/dropped`;
    const { requestId, notices } = await callHttpPost(url, {
      'Content-Type': 'application/json',
      Host: 'elsewhere.example',
      Connection: 'close',
      'Keep-Alive': 'timeout=5',
      'Transfer-Encoding': 'chunked',
      'webhook-signature': 'v1,forged',
      Authorization: 'Bearer receiver-token',
      'X-Tenant': 'acme',
    });
    const endpoint = await implicitEndpointOf(requestId);
    expect(endpoint.headers).toEqual({ authorization: 'Bearer receiver-token', 'x-tenant': 'acme' });
    const dropped = notices.map((notice) => /header '([^']+)'/.exec(notice.message)?.[1]).sort();
    expect(dropped).toEqual(['connection', 'host', 'keep-alive', 'transfer-encoding', 'webhook-signature']);
    expect(notices[0]!.message).toMatch(/is set by Hookline; the one given was dropped/);
    expect(notices[0]!.hint).toContain('webhook-*');

    // The endpoint's key still covers the headers as given (so endpoints created before the migration
    // are found again): the same call finds the same endpoint.
    const again = await callHttpPost(url, {
      'Content-Type': 'application/json',
      Host: 'elsewhere.example',
      Connection: 'close',
      'Keep-Alive': 'timeout=5',
      'Transfer-Encoding': 'chunked',
      'webhook-signature': 'v1,forged',
      Authorization: 'Bearer receiver-token',
      'X-Tenant': 'acme',
    });
    expect(again.notices).toHaveLength(5);
    expect((await implicitEndpointOf(again.requestId)).id).toBe(endpoint.id);
  });

  it('still refuses a non-JSON Content-Type, as before', async () => {
    await expect(callHttpPost(`${receiver.url}/sql/xml`, { 'Content-Type': 'text/xml' })).rejects.toThrow(
      /Content-Type header must be "application\/json"/,
    );
  });

  it('lets the worker deliver what it recorded without the dropped headers', async () => {
    const url = `${receiver.url}/sql/delivered`;
    await callHttpPost(url, {
      Connection: 'keep-alive',
      'Keep-Alive': 'timeout=5',
      Upgrade: 'h2c',
      'X-Tenant': 'acme',
    });
    // An implicit endpoint stored before this migration may hold reserved headers: the worker drops them.
    const { rows } = await db.pool.query<{ id: string }>(
      `UPDATE hookline.endpoints SET headers = headers || '{"keep-alive": "timeout=5", "upgrade": "h2c", "webhook-extra": "x"}'
        WHERE url = $1 RETURNING id`,
      [url],
    );
    expect(rows).toHaveLength(1);
    await startTestWorker(db.url);
    await waitUntil(() => receiver.requests.some((request) => request.path === '/sql/delivered'), {
      what: 'the recorded request to arrive',
    });
    const received = receiver.requests.find((request) => request.path === '/sql/delivered')!;
    expect(received.headers['x-tenant']).toBe('acme');
    expect(received.headers['upgrade']).toBeUndefined();
    expect(received.headers['keep-alive']).toBeUndefined();
    expect(received.headers['webhook-extra']).toBeUndefined();
    expect(received.headers['host']).toBe(new URL(url).host);
    expect(received.body).toBe('{"n": 1}');
  });
});
