// Cursor pagination: every list pages through its rows newest first; rows inserted while a client
// pages never cause a duplicate or a skip of a row that existed when paging started; a cursor row that
// changes or disappears between pages does not make the next page skip rows either.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../lib/domain/api-keys/create-api-key';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { createAppWorld, insertDelivery } from './support/world';
import { fanOutQueued } from '../support/deliveries';

let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

/** Every page of a list, following nextCursor; the ids in the order they were listed. */
async function pageThrough(
  path: string,
  limit: number,
  query: Record<string, string> = {},
  betweenPages?: (page: number) => Promise<void>,
) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const response = await call('GET', path, { key: ctx.adminKey, query: { ...query, limit, cursor } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...response.body.data.map((row: { id: string }) => row.id));
    cursor = response.body.nextCursor ?? undefined;
    if (!cursor) return ids;
    expect(response.body.data.length).toBe(limit);
    await betweenPages?.(page);
  }
  throw new Error('more than 1000 pages');
}

/** The ids of a table in the API's order: created_at (with microseconds) newest first, then id. */
/** The API's order: newest first by created_at, then id; messages by id alone (their key, (app_id, id)).
 * Message and delivery ids as the API shows them (stored as uuid: migration 20261208090000_ids_as_uuid). */
async function idsInOrder(table: string, where: string, params: unknown[]): Promise<string[]> {
  const shown =
    { messages: `hookline.public_id('msg', id)`, deliveries: `hookline.public_id('dlv', id)` }[table] ?? 'id';
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `SELECT ${shown} AS id FROM hookline.${table} WHERE ${where}
      ORDER BY ${table === 'messages' ? '' : 'created_at DESC, '}id DESC`,
    params,
  );
  return rows.map((row) => row.id);
}

async function insertMessages(appId: string, count: number, eventType = 'tick') {
  // One statement: every row gets the same created_at (the transaction's now()), so only the id orders them.
  await ctx.db.pool.query(
    `INSERT INTO hookline.messages (app_id, event_type, payload, written_by) SELECT $1, $2, jsonb_build_object('n', g), NULL FROM generate_series(1, $3) AS g`,
    [appId, eventType, count],
  );
}

describe('every list pages through all of its rows', () => {
  it.each([
    [
      'apps',
      async () => {
        for (let i = 0; i < 7; i++) await createApp(ctx.db.pool, `app ${i}`);
        return { path: '/v1/apps', table: 'apps', where: 'true', params: [] as unknown[] };
      },
    ],
    [
      'event types',
      async () => {
        const appId = await createApp(ctx.db.pool, 'event types');
        for (let i = 0; i < 11; i++) await createEventType(ctx.db.pool, appId, `type.${i}`);
        return { path: `/v1/apps/${appId}/event-types`, table: 'event_types', where: 'app_id = $1', params: [appId] };
      },
    ],
    [
      'endpoints',
      async () => {
        const appId = await createApp(ctx.db.pool, 'endpoints');
        for (let i = 0; i < 11; i++) await createEndpoint(ctx.db.pool, appId, `https://example.com/${i}`);
        return { path: `/v1/apps/${appId}/endpoints`, table: 'endpoints', where: 'app_id = $1', params: [appId] };
      },
    ],
    [
      'messages',
      async () => {
        const appId = await createApp(ctx.db.pool, 'messages');
        await insertMessages(appId, 23);
        return { path: `/v1/apps/${appId}/messages`, table: 'messages', where: 'app_id = $1', params: [appId] };
      },
    ],
    [
      'deliveries',
      async () => {
        const appId = await createApp(ctx.db.pool, 'deliveries');
        await createEventType(ctx.db.pool, appId, 'tick');
        for (let i = 0; i < 4; i++) await createEndpoint(ctx.db.pool, appId, `https://example.com/${i}`);
        // Each send fans out to 4 endpoints in one statement: groups of rows sharing a created_at.
        for (let i = 0; i < 5; i++) await ctx.db.pool.query(`SELECT hookline.send($1, 'tick', '{}')`, [appId]);
        await fanOutQueued(ctx.db.pool);
        return { path: `/v1/apps/${appId}/deliveries`, table: 'deliveries', where: 'app_id = $1', params: [appId] };
      },
    ],
    [
      'alert rules',
      async () => {
        const appId = await createApp(ctx.db.pool, 'alert rules');
        for (let i = 0; i < 7; i++) {
          await ctx.db.pool.query(
            `INSERT INTO hookline.alert_rules (app_id, kind, threshold) VALUES ($1, 'dead_per_hour_above', $2)`,
            [appId, i],
          );
        }
        return { path: `/v1/apps/${appId}/alert-rules`, table: 'alert_rules', where: 'app_id = $1', params: [appId] };
      },
    ],
    [
      'API keys',
      async () => {
        for (let i = 0; i < 7; i++) await createApiKey({ name: `key ${i}` });
        return { path: '/v1/api-keys', table: 'api_keys', where: 'true', params: [] as unknown[] };
      },
    ],
  ])('%s', async (_label, setUp) => {
    const { path, table, where, params } = await setUp();
    const expected = await idsInOrder(table, where, params);
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of [1, 2, 3, 250]) expect(await pageThrough(path, limit), `limit ${limit}`).toEqual(expected);
  });
});

describe('while rows are inserted', () => {
  it('100 rows sharing one created_at are listed once each, in id order', async () => {
    const appId = await createApp(ctx.db.pool, 'same instant');
    await insertMessages(appId, 100);
    const listed = await pageThrough(`/v1/apps/${appId}/messages`, 7);
    expect(listed).toEqual(await idsInOrder('messages', 'app_id = $1', [appId]));
    expect(new Set(listed).size).toBe(100);
  });

  it('lists every row that existed when paging started exactly once while others are inserted concurrently', async () => {
    const appId = await createApp(ctx.db.pool, 'concurrent');
    await createEventType(ctx.db.pool, appId, 'tick');
    await insertMessages(appId, 60);
    await ctx.db.pool.query(`SELECT hookline.send($1, 'tick', '{}') FROM generate_series(1, 40)`, [appId]);
    const existing = await idsInOrder('messages', 'app_id = $1', [appId]);

    // Two inserters run for the whole paging: single sends, and batches that share a created_at.
    let stop = false;
    let inserted = 0;
    const inserters = [
      (async () => {
        while (!stop) {
          await ctx.db.pool.query(`SELECT hookline.send($1, 'tick', '{}')`, [appId]);
          inserted++;
        }
      })(),
      (async () => {
        while (!stop) {
          await insertMessages(appId, 5);
          inserted += 5;
        }
      })(),
    ];
    let listed: string[];
    try {
      // Also through the API between pages, so inserts land between every pair of pages at least.
      listed = await pageThrough(`/v1/apps/${appId}/messages`, 7, {}, async () => {
        const response = await call('POST', `/v1/apps/${appId}/messages`, {
          key: ctx.adminKey,
          body: { eventType: 'tick', payload: {} },
        });
        expect(response.status).toBe(202);
      });
    } finally {
      stop = true;
      await Promise.all(inserters);
    }
    expect(inserted).toBeGreaterThan(0);
    expect(new Set(listed).size, 'no row listed twice').toBe(listed.length);
    expect(
      existing.filter((id) => !listed.includes(id)),
      'rows that existed but were skipped',
    ).toEqual([]);
    // Whatever was listed is in the API's order.
    const order = await idsInOrder('messages', `hookline.public_id('msg', id) = ANY($1)`, [listed]);
    expect(listed).toEqual(order);
  });

  it('a row committed mid-paging by a transaction that began earlier is never listed twice', async () => {
    const appId = await createApp(ctx.db.pool, 'late commit');
    await insertMessages(appId, 10);
    const client = await ctx.db.pool.connect();
    try {
      await client.query('BEGIN');
      // now() is the transaction's start, so this row sorts among rows committed long before it.
      await client.query(
        `INSERT INTO hookline.messages (app_id, event_type, payload, written_by) VALUES ($1, 'tick', '{"late": true}', NULL)`,
        [appId],
      );
      await insertMessages(appId, 10);
      const listed = await pageThrough(`/v1/apps/${appId}/messages`, 3, {}, async (page) => {
        if (page === 1) await client.query('COMMIT');
      });
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed.length).toBeGreaterThanOrEqual(20);
    } finally {
      client.release();
    }
  });
});

describe('when the cursor row changes between pages', () => {
  it('the row leaving the filter (a dead delivery replayed while paging dead ones) does not skip the next row', async () => {
    const appId = await createApp(ctx.db.pool, 'filter change');
    await createEventType(ctx.db.pool, appId, 'tick');
    await createEndpoint(ctx.db.pool, appId, 'https://example.com/dead');
    for (let i = 0; i < 6; i++) await ctx.db.pool.query(`SELECT hookline.send($1, 'tick', '{}')`, [appId]);
    await fanOutQueued(ctx.db.pool);
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET state = 'dead', attempt_count = 8, claimable_at = NULL, last_error_class = 'timeout'
       WHERE app_id = $1`,
      [appId],
    );
    const dead = await idsInOrder('deliveries', 'app_id = $1', [appId]);
    expect(await pageThrough(`/v1/apps/${appId}/deliveries`, 2, { state: 'dead' })).toEqual(dead);

    // Replay each page as it is shown, as an operator working through dead deliveries would: the
    // cursor row is no longer dead when the next page is asked for.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const response = await call('GET', `/v1/apps/${appId}/deliveries`, {
        key: ctx.adminKey,
        query: { state: 'dead', limit: 2, cursor },
      });
      const ids = response.body.data.map((row: { id: string }) => row.id);
      seen.push(...ids);
      expect(
        (await call('POST', `/v1/apps/${appId}/deliveries/replay`, { key: ctx.adminKey, body: { deliveryIds: ids } }))
          .body,
      ).toEqual({
        replayed: ids.length,
      });
      cursor = response.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(dead);
  });

  it('the cursor row being deleted does not end the list early or skip rows', async () => {
    const appId = await createApp(ctx.db.pool, 'deleted cursor');
    for (let i = 0; i < 9; i++) await createEventType(ctx.db.pool, appId, `type.${i}`);
    await ctx.db.pool.query(
      `UPDATE hookline.event_types SET created_at = now() - make_interval(secs => substr(name, 6)::int) WHERE app_id = $1`,
      [appId],
    );
    const all = await idsInOrder('event_types', 'app_id = $1', [appId]);
    const first = await call('GET', `/v1/apps/${appId}/event-types`, { key: ctx.adminKey, query: { limit: 3 } });
    const cursorRow = first.body.data[2];
    expect(cursorRow.id).toBe(all[2]);
    await ctx.db.pool.query('DELETE FROM hookline.event_types WHERE id = $1', [cursorRow.id]);

    const rest = await call('GET', `/v1/apps/${appId}/event-types`, {
      key: ctx.adminKey,
      query: { limit: 100, cursor: first.body.nextCursor },
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.data.map((row: { id: string }) => row.id)).toEqual(all.slice(3));
  });

  it('after a deleted cursor row, rows of its millisecond may come again but none is skipped', async () => {
    const appId = await createApp(ctx.db.pool, 'deleted cursor, one instant');
    await insertMessages(appId, 9);
    const all = await idsInOrder('messages', 'app_id = $1', [appId]);
    const first = await call('GET', `/v1/apps/${appId}/messages`, { key: ctx.adminKey, query: { limit: 3 } });
    await ctx.db.pool.query('DELETE FROM hookline.messages WHERE id = hookline.uuid_of($1)', [all[2]]);
    const rest = await call('GET', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      query: { limit: 100, cursor: first.body.nextCursor },
    });
    const ids: string[] = rest.body.data.map((row: { id: string }) => row.id);
    expect(ids.slice(-6)).toEqual(all.slice(3));
    expect(all.slice(0, 2)).toEqual(expect.arrayContaining(ids.slice(0, -6)));
  });
});

describe('limits and cursors', () => {
  it('defaults to 50 rows a page and allows at most 250', async () => {
    const appId = await createApp(ctx.db.pool, 'limits');
    await insertMessages(appId, 260);
    const path = `/v1/apps/${appId}/messages`;
    const byDefault = await call('GET', path, { key: ctx.adminKey });
    expect(byDefault.body.data).toHaveLength(50);
    expect(byDefault.body.nextCursor).toEqual(expect.any(String));
    expect((await call('GET', path, { key: ctx.adminKey, query: { limit: 250 } })).body.data).toHaveLength(250);
    expectError(await call('GET', path, { key: ctx.adminKey, query: { limit: 251 } }), 400, 'invalid_query', 'limit');
    expectError(await call('GET', path, { key: ctx.adminKey, query: { limit: 0 } }), 400, 'invalid_query', 'limit');
  });

  it('the last page has nextCursor null', async () => {
    const appId = await createApp(ctx.db.pool, 'exact');
    await insertMessages(appId, 4);
    const path = `/v1/apps/${appId}/messages`;
    const first = await call('GET', path, { key: ctx.adminKey, query: { limit: 2 } });
    const second = await call('GET', path, { key: ctx.adminKey, query: { limit: 2, cursor: first.body.nextCursor } });
    expect(second.body.data).toHaveLength(2);
    expect(second.body.nextCursor).toBeNull();
  });

  it.each([
    ['text that is not base64 JSON', 'not-a-cursor'],
    ['a cursor without a time', Buffer.from(JSON.stringify({ id: 'msg_1' })).toString('base64url')],
    ['a cursor with an empty id', Buffer.from(JSON.stringify({ id: '', t: 0 })).toString('base64url')],
    ['a cursor with a time out of range', Buffer.from(JSON.stringify({ id: 'msg_1', t: 1e300 })).toString('base64url')],
    [
      'a cursor in year 0',
      Buffer.from(JSON.stringify({ id: 'msg_1', t: Date.parse('0000-06-01T00:00:00Z') })).toString('base64url'),
    ],
    [
      'a cursor at the last instant of JavaScript time',
      Buffer.from(JSON.stringify({ id: 'msg_1', t: 8.64e15 })).toString('base64url'),
    ],
    ['a cursor of 501 characters', 'a'.repeat(501)],
  ])('refuses %s with 400', async (_label, cursor) => {
    const appId = await createApp(ctx.db.pool, 'bad cursor');
    const response = await call('GET', `/v1/apps/${appId}/messages`, { key: ctx.adminKey, query: { cursor } });
    expect(response.status, response.text).toBe(400);
    expect(['invalid_cursor', 'invalid_query']).toContain(response.body.error.code);
  });

  it('a cursor of another list pages by its time instead of failing', async () => {
    const appId = await createApp(ctx.db.pool, 'foreign cursor');
    await insertMessages(appId, 3);
    const keys = await call('GET', '/v1/api-keys', { key: ctx.adminKey, query: { limit: 1 } });
    const response = await call('GET', `/v1/apps/${appId}/messages`, {
      key: ctx.adminKey,
      query: { cursor: keys.body.nextCursor },
    });
    expect(response.status, response.text).toBe(200);
  });

  it('a delivery cursor whose id is no delivery id pages from its time, as one whose row is gone', async () => {
    // Delivery ids are stored as uuid (migration 20261208090000_ids_as_uuid): a cursor's id that is not
    // one ('dlv_' and 32 hex digits) names no row, and is never passed to PostgreSQL.
    const appId = await createApp(ctx.db.pool, 'cursor of no delivery');
    const endpoint = await createEndpoint(ctx.db.pool, appId, 'https://example.com/no-delivery');
    for (const createdSecondsAgo of [10, 20, 30, 40, 50])
      await insertDelivery(ctx.db.pool, { appId, endpointId: endpoint.id, createdSecondsAgo });
    const all = await idsInOrder('deliveries', 'app_id = $1', [appId]);
    // The whole list (listAppDeliveries) and an endpoint's (findPage).
    for (const query of [{}, { endpointId: endpoint.id }]) {
      const path = `/v1/apps/${appId}/deliveries`;
      const first = await call('GET', path, { key: ctx.adminKey, query: { ...query, limit: 2 } });
      const { t } = JSON.parse(Buffer.from(first.body.nextCursor, 'base64url').toString('utf8')) as { t: number };
      for (const id of ['dlv_gone', `msg_${'0'.repeat(32)}`]) {
        const cursor = Buffer.from(JSON.stringify({ id, t })).toString('base64url');
        const rest = await call('GET', path, { key: ctx.adminKey, query: { ...query, cursor } });
        expect(rest.status, rest.text).toBe(200);
        // The cursor row's millisecond again (its row among them), then the rest.
        expect(
          rest.body.data.map((row: { id: string }) => row.id),
          `${JSON.stringify(query)} ${id}`,
        ).toEqual(all.slice(1));
      }
    }
  });
});

// Every list answers a page ({data, nextCursor}); a list that took no cursor would answer a forged one
// with its first page, and a client following nextCursor could not tell. The lists are read from the
// OpenAPI document, so a list added later is walked too.
describe('every list of the OpenAPI document', () => {
  interface Schema {
    $ref?: string;
    properties?: Record<string, unknown>;
  }
  interface DocumentOperation {
    operationId: string;
    parameters?: { name: string; in: string }[];
    responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  }

  it('documents limit and cursor, and refuses a cursor that is not one with 400 invalid_cursor', async () => {
    const world = await createAppWorld(ctx.db.pool, 'every list');
    const document = (await call('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, DocumentOperation>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (schema: Schema): Schema =>
      schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').at(-1)!]!) : schema;
    const ids: Record<string, string> = { appId: world.appId, endpointId: world.endpointId };
    const lists = Object.entries(document.paths).flatMap(([path, methods]) => {
      const get = methods.get;
      const schema = get?.responses['200']?.content?.['application/json']?.schema;
      return get && schema && resolve(schema).properties?.nextCursor ? [{ path, operation: get }] : [];
    });
    // Today's twelve lists; the walk itself needs no update when one is added.
    expect(lists.length).toBeGreaterThanOrEqual(12);
    const answers: Record<string, string> = {};
    for (const { path, operation } of lists) {
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((p) => p.name);
      answers[`${operation.operationId} parameters`] = ['limit', 'cursor']
        .filter((name) => query.includes(name))
        .join();
      const concrete = `/v1${path}`.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (!ids[name]) throw new Error(`${operation.operationId}: no test id for {${name}}`);
        return ids[name];
      });
      // Bytes that are not UTF-8 (read as U+FFFD), and text that is not base64 JSON.
      for (const cursor of ['%ff%fe', 'not-a-cursor']) {
        const response = await call('GET', `${concrete}?cursor=${cursor}`, { key: ctx.adminKey });
        answers[`${operation.operationId} ${cursor}`] = `${response.status} ${response.body?.error?.code ?? ''}`;
      }
    }
    expect(answers).toEqual(
      Object.fromEntries(
        Object.keys(answers).map((key) => [key, key.endsWith(' parameters') ? 'limit,cursor' : '400 invalid_cursor']),
      ),
    );
  });
});
