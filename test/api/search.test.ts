// Payload search over any range (issue 23 item 10): GET .../messages and .../deliveries with search,
// payloadPath + payloadValue (+ payloadMatch), walking back through time partitions under
// HOOKLINE_SEARCH_BUDGET_MS. Against a real PostgreSQL: what matches, the order, the budget and the
// cursor that continues (every match exactly once), the customer portal's scope, and a range over
// many time partitions made by the worker's maintenance with a moved clock.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maintainTimePartitions } from '../../worker/time-partitions';
import { Prisma } from '../../lib/generated/prisma/client';
import { idTimeMs } from '../../lib/database/ids';
import { walkBack } from '../../lib/domain/search/walk-back';
import type { SearchPosition } from '../../lib/domain/search/search-cursor';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { call, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { portalCall, portalToken } from './support/portal';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let ctx: ApiTestContext;

beforeAll(async () => {
  ctx = await setUpApiTest();
});

afterEach(() => {
  delete process.env.HOOKLINE_SEARCH_BUDGET_MS;
  resetApiSettings();
});

/** A tiny budget: every request searches one slice, and the search goes on page after page. */
function tinyBudget() {
  process.env.HOOKLINE_SEARCH_BUDGET_MS = '1';
  resetApiSettings();
}

interface World {
  appId: string;
  endpoints: string[];
}

async function world(name: string, endpointCount = 2): Promise<World> {
  const appId = await createApp(ctx.db.pool, name);
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  await createEventType(ctx.db.pool, appId, 'user.created');
  const endpoints: string[] = [];
  for (let i = 0; i < endpointCount; i++) {
    endpoints.push((await createEndpoint(ctx.db.pool, appId, `https://example.com/${name}/${i}`)).id);
  }
  return { appId, endpoints };
}

/** A message made at `at` (its id and created_at say so, as hookline.send then would) with one waiting
 * delivery per endpoint of the world; returns the message id and its delivery ids, newest id first, as
 * the API shows them (stored as uuid: migration 20261208090000_ids_as_uuid). */
async function messageAt(w: World, at: Date, payload: unknown, eventType = 'invoice.paid') {
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
     VALUES (hookline.new_uuid(hookline.id_at('', $2)::uuid), $1, $3, $4, $2)
     RETURNING hookline.public_id('msg', id) AS id`,
    [w.appId, at, eventType, JSON.stringify(payload)],
  );
  const messageId = rows[0]!.id;
  const deliveries: string[] = [];
  for (const endpointId of w.endpoints) {
    const { rows: delivery } = await ctx.db.pool.query<{ id: string }>(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, claimable_at, created_at)
       VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, $4, 'pending', now() + interval '1 hour', $5)
       RETURNING hookline.public_id('dlv', id) AS id`,
      [w.appId, messageId, endpointId, eventType, at],
    );
    deliveries.push(delivery[0]!.id);
  }
  return { messageId, deliveries: deliveries.sort().reverse() };
}

const ago = (ms: number) => new Date(Date.now() - ms);

interface SearchPage {
  data: { id: string; messageId?: string; endpointId?: string }[];
  nextCursor: string | null;
  searchedBackTo: string | null;
}

async function page(list: 'messages' | 'deliveries', appId: string, query: Record<string, string>) {
  const response = await call('GET', `/v1/apps/${appId}/${list}`, { key: ctx.adminKey, query });
  expect(response.status, response.text).toBe(200);
  return response.body as SearchPage;
}

/** Every page of a search, following nextCursor to the end. */
async function allPages(list: 'messages' | 'deliveries', appId: string, query: Record<string, string>) {
  const pages: SearchPage[] = [];
  let cursor: string | null = null;
  do {
    const next = await page(list, appId, cursor ? { ...query, cursor } : query);
    pages.push(next);
    cursor = next.nextCursor;
    expect(pages.length).toBeLessThan(500);
  } while (cursor);
  return pages;
}

const idsOf = (pages: SearchPage[]) => pages.flatMap((p) => p.data.map((row) => row.id));

describe('payload search', () => {
  let w: World;
  let m1: Awaited<ReturnType<typeof messageAt>>;
  let m2: Awaited<ReturnType<typeof messageAt>>;
  let m3: Awaited<ReturnType<typeof messageAt>>;
  let m4: Awaited<ReturnType<typeof messageAt>>;

  beforeAll(async () => {
    w = await world('search');
    // m3 and m4 are older than the day a payload search was held to before.
    m4 = await messageAt(w, ago(3 * 24 * HOUR), { tier: 3, note: 'nothing to see' }, 'user.created');
    m3 = await messageAt(w, ago(26 * HOUR), { customer: { id: 'cus_42', name: 'ada byron' }, amount: 42 });
    m2 = await messageAt(w, ago(2 * HOUR), { customer: { id: 'cus_7', name: 'Grace Hopper' }, note: '100% done' });
    m1 = await messageAt(w, ago(HOUR), { customer: { id: 'cus_42', name: 'Ada Lovelace' }, amount: 4200 });
  });

  const messageIds = async (query: Record<string, string>) => {
    const result = await page('messages', w.appId, query);
    expect(result.nextCursor).toBeNull();
    return result.data.map((row) => row.id);
  };

  it('matches a substring of the body, any case, over any range, newest first', async () => {
    expect(await messageIds({ search: 'lovelace' })).toEqual([m1.messageId]);
    expect(await messageIds({ search: 'ADA' })).toEqual([m1.messageId, m3.messageId]);
    expect(await messageIds({ search: 'cus_' })).toEqual([m1.messageId, m2.messageId, m3.messageId]);
    // % and _ are themselves, not patterns.
    expect(await messageIds({ search: '100%' })).toEqual([m2.messageId]);
    expect(await messageIds({ search: 'cus%' })).toEqual([]);
    // The body as PostgreSQL prints it: a space after the colon; "amount": 42 is in "amount": 4200 too.
    expect(await messageIds({ search: '"amount": 42' })).toEqual([m1.messageId, m3.messageId]);
    expect(await messageIds({ search: 'nowhere' })).toEqual([]);
  });

  it('matches a JSON path by equality or by a substring of its value', async () => {
    const path = (payloadPath: string, payloadValue: string, payloadMatch?: string) =>
      messageIds({ payloadPath, payloadValue, ...(payloadMatch ? { payloadMatch } : {}) });
    expect(await path('customer.id', 'cus_42')).toEqual([m1.messageId, m3.messageId]);
    expect(await path('customer.id', '"cus_42"', 'equals')).toEqual([m1.messageId, m3.messageId]);
    expect(await path('amount', '42')).toEqual([m3.messageId]);
    expect(await path('amount', '"42"')).toEqual([]);
    expect(await path('customer', '{"id": "cus_7", "name": "Grace Hopper"}')).toEqual([m2.messageId]);
    expect(await path('customer.name', 'ADA', 'contains')).toEqual([m1.messageId, m3.messageId]);
    expect(await path('customer.name', 'hop', 'contains')).toEqual([m2.messageId]);
    expect(await path('customer.id', '4', 'contains')).toEqual([m1.messageId, m3.messageId]);
    expect(await path('amount', '420', 'contains')).toEqual([m1.messageId]);
    expect(await path('customer.missing', 'a', 'contains')).toEqual([]);
    // Both at once: each must match.
    expect(await messageIds({ search: 'byron', payloadPath: 'customer.id', payloadValue: 'cus_42' })).toEqual([
      m3.messageId,
    ]);
  });

  it('keeps the other filters: event type, range, and a delivery condition', async () => {
    expect(await messageIds({ search: 'e', eventType: 'user.created' })).toEqual([m4.messageId]);
    // An event type alone is a search too (no index serves it): it says how far back it looked.
    const byType = await page('messages', w.appId, { eventType: 'user.created' });
    expect(byType.data.map((row) => row.id)).toEqual([m4.messageId]);
    expect(byType.searchedBackTo).toEqual(expect.any(String));
    expect(await messageIds({ eventType: 'invoice.paid', search: 'lovelace' })).toEqual([m1.messageId]);
    const from = ago(1.5 * HOUR).toISOString();
    const recent = await page('messages', w.appId, { search: 'ada', from });
    expect(recent.data.map((row) => row.id)).toEqual([m1.messageId]);
    expect(recent.nextCursor).toBeNull();
    expect(recent.searchedBackTo).toBe(from);
    expect(await messageIds({ search: 'ada', to: ago(1.5 * HOUR).toISOString() })).toEqual([m3.messageId]);
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET last_status_code = 503, attempt_count = 1 WHERE id = hookline.uuid_of($1)`,
      [m3.deliveries[0]],
    );
    expect(await messageIds({ search: 'ada', statusCode: '503' })).toEqual([m3.messageId]);
    // Without a search, the list is what it was, and says it searched nothing.
    const plain = await page('messages', w.appId, {});
    expect(plain.searchedBackTo).toBeNull();
    expect(plain.data.map((row) => row.id)).toEqual([m1.messageId, m2.messageId, m3.messageId, m4.messageId]);
  });

  it("finds deliveries by their message's payload, with the deliveries' own filters", async () => {
    const all = await page('deliveries', w.appId, { search: 'ada' });
    expect(all.data.map((row) => row.id)).toEqual([...m1.deliveries, ...m3.deliveries]);
    expect(all.nextCursor).toBeNull();
    const one = await page('deliveries', w.appId, {
      payloadPath: 'customer.name',
      payloadValue: 'lovelace',
      payloadMatch: 'contains',
      endpointId: w.endpoints[1]!,
    });
    expect(one.data.map((row) => [row.messageId, row.endpointId])).toEqual([[m1.messageId, w.endpoints[1]]]);
    const byState = await page('deliveries', w.appId, { search: 'cus_', statusCode: '503' });
    expect(byState.data.map((row) => row.id)).toEqual([m3.deliveries[0]]);
    // from and to bound the message's time.
    const older = await page('deliveries', w.appId, { search: 'cus_', to: ago(1.5 * HOUR).toISOString() });
    expect(older.data.map((row) => row.messageId)).toEqual([m2.messageId, m2.messageId, m3.messageId, m3.messageId]);
  });

  it.each([
    ['a value without a path', { payloadValue: 'x' }, 'payloadPath'],
    ['a path without a value', { payloadPath: 'customer.id' }, 'payloadValue'],
    ['a match without a path', { search: 'x', payloadMatch: 'contains' }, 'payloadMatch'],
    ['an unknown match', { payloadPath: 'a', payloadValue: 'x', payloadMatch: 'fuzzy' }, 'payloadMatch'],
    ['an empty search', { search: '' }, 'search'],
    ['a search of 201 characters', { search: 'x'.repeat(201) }, 'search'],
    ['a path with spaces', { payloadPath: 'a b', payloadValue: '1' }, 'payloadPath'],
  ])('answers 400 for %s, naming the parameter', async (_label, query, field) => {
    for (const list of ['messages', 'deliveries']) {
      expectError(
        await call('GET', `/v1/apps/${w.appId}/${list}`, { key: ctx.adminKey, query }),
        400,
        'invalid_query',
        field,
      );
    }
  });

  it.each([
    ['an escaped NUL', '"\\u0000"'],
    ['an escaped NUL in a key', '{"a\\u0000": 1}'],
    ['a lone surrogate', '"\\ud800"'],
    ['a lone low surrogate in an array', '["x", "\\udc00"]'],
    ["a number past numeric's digits before the point", '1e131072'],
    ["a number past numeric's digits after the point", '1e-16384'],
  ])('refuses, naming payloadValue, JSON to equal that jsonb refuses: %s', async (_label, payloadValue) => {
    const query = { payloadPath: 'customer.id', payloadValue };
    for (const list of ['messages', 'deliveries']) {
      expectError(
        await call('GET', `/v1/apps/${w.appId}/${list}`, { key: ctx.adminKey, query }),
        400,
        'invalid_query',
        'payloadValue',
      );
    }
    for (const dryRun of [true, false]) {
      expectError(
        await call('POST', `/v1/apps/${w.appId}/deliveries/replay`, {
          key: ctx.adminKey,
          body: { filter: query, dryRun },
        }),
        422,
        'validation_failed',
        'filter.payloadValue',
      );
    }
    // As a substring it is plain text, and nothing is cast.
    const contains = await call('GET', `/v1/apps/${w.appId}/messages`, {
      key: ctx.adminKey,
      query: { ...query, payloadMatch: 'contains' },
    });
    expect(contains.status, contains.text).toBe(200);
  });

  it("takes what jsonb takes up to its limits: a surrogate pair, numeric's largest and smallest", async () => {
    for (const payloadValue of ['"\\ud83d\\ude00"', '1e131071', '0.5e131072', '1e-16383']) {
      expect(await messageIds({ payloadPath: 'customer.id', payloadValue }), payloadValue).toEqual([]);
    }
  });

  it('refuses a cursor that is not a search cursor', async () => {
    const plainCursor = (await page('messages', w.appId, { limit: '1' })).nextCursor!;
    for (const cursor of ['garbage', plainCursor]) {
      expectError(
        await call('GET', `/v1/apps/${w.appId}/messages`, { key: ctx.adminKey, query: { search: 'a', cursor } }),
        400,
        'invalid_cursor',
        'cursor',
      );
    }
  });
});

describe('the budget and the cursor', () => {
  let w: World;
  let matching: Awaited<ReturnType<typeof messageAt>>[];

  beforeAll(async () => {
    w = await world('budget');
    matching = [];
    // Five days, a message every two hours; every third one matches.
    for (let i = 60; i >= 1; i--) {
      const hit = i % 3 === 0;
      const message = await messageAt(w, ago(i * 2 * HOUR), { order: `o_${i}`, flag: hit ? 'Needle' : 'hay' });
      if (hit) matching.unshift(message);
    }
  });

  it('answers within its budget with where it got to, and the cursor finds every match exactly once, newest first', async () => {
    tinyBudget();
    const pages = await allPages('messages', w.appId, { search: 'needle', limit: '3' });
    expect(idsOf(pages)).toEqual(matching.map((m) => m.messageId));
    // More pages than the limit alone needs: pages answered short when the budget ran out.
    expect(pages.length).toBeGreaterThan(Math.ceil(matching.length / 3));
    expect(pages.some((p) => p.data.length < 3 && p.nextCursor !== null)).toBe(true);
    // How far back each page searched only goes back, and every row of a page is at or after it.
    const reached = pages.map((p) => Date.parse(p.searchedBackTo!));
    expect([...reached].sort((a, b) => b - a)).toEqual(reached);
    for (const p of pages) {
      for (const row of p.data) {
        const at = parseInt(row.id.slice(4, 16), 16);
        expect(at).toBeGreaterThanOrEqual(Date.parse(p.searchedBackTo!));
      }
    }
    // The last page searched back to the app's oldest message.
    expect(Date.parse(pages.at(-1)!.searchedBackTo!)).toBeLessThanOrEqual(ago(119 * HOUR).getTime());

    // The default budget finds them all at once.
    resetBudget();
    const once = await page('messages', w.appId, { search: 'needle', limit: '100' });
    expect(once.data.map((row) => row.id)).toEqual(matching.map((m) => m.messageId));
    expect(once.nextCursor).toBeNull();
  });

  it('continues a delivery search inside a message whose deliveries a page split', async () => {
    tinyBudget();
    // Three deliveries a page, two a message: pages end in the middle of a message.
    const pages = await allPages('deliveries', w.appId, { search: 'needle', limit: '3' });
    expect(idsOf(pages)).toEqual(matching.flatMap((m) => m.deliveries));
    // And with the default budget, full pages of three.
    resetBudget();
    const full = await allPages('deliveries', w.appId, { search: 'needle', limit: '3' });
    expect(full.slice(0, -1).every((p) => p.data.length === 3)).toBe(true);
    expect(idsOf(full)).toEqual(matching.flatMap((m) => m.deliveries));
  });
});

function resetBudget() {
  delete process.env.HOOKLINE_SEARCH_BUDGET_MS;
  resetApiSettings();
}

describe("the delivery list's filters no index serves", () => {
  let w: World;
  let oldest: Awaited<ReturnType<typeof messageAt>>;
  let newer: Awaited<ReturnType<typeof messageAt>>;

  beforeAll(async () => {
    w = await world('walking-filters');
    // Four days of history, one message every two hours. Only two deliveries ever failed with a TLS
    // error: one four days ago, one a day ago. The rest never failed.
    for (let i = 48; i >= 1; i--) {
      const message = await messageAt(w, ago(i * 2 * HOUR), { n: i }, i % 2 === 0 ? 'invoice.paid' : 'user.created');
      if (i === 48) oldest = message;
      if (i === 12) newer = message;
    }
    for (const [message, endpoint] of [
      [oldest, 0],
      [newer, 1],
    ] as const) {
      await ctx.db.pool.query(
        `UPDATE hookline.deliveries SET last_error_class = 'tls', attempt_count = 3, last_status_code = NULL
          WHERE message_id = hookline.uuid_of($1) AND endpoint_id = $2`,
        [message.messageId, w.endpoints[endpoint]],
      );
    }
  });

  it('walks back under the budget, says how far it got, and the cursor finds each match once', async () => {
    // Newest message first: the one failed a day ago, then the one four days ago.
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries
        WHERE app_id = $1 AND last_error_class = 'tls' ORDER BY message_id DESC`,
      [w.appId],
    );
    const expected = rows.map((row) => row.id);
    expect(expected).toHaveLength(2);

    // With the default budget, one request finds both, and says it searched back to the oldest message.
    const once = await page('deliveries', w.appId, { errorClass: 'tls' });
    expect(once.data.map((row) => row.id)).toEqual(expected);
    expect(once.nextCursor).toBeNull();
    expect(Date.parse(once.searchedBackTo!)).toBeLessThanOrEqual(ago(95 * HOUR).getTime());

    // A page of one: the next page goes on below the delivery the last one listed.
    const single = await allPages('deliveries', w.appId, { errorClass: 'tls', limit: '1' });
    expect(idsOf(single)).toEqual(expected);
    // A message search's cursor is no cursor of this walk.
    const messageCursor = (await page('messages', w.appId, { eventType: 'user.created', limit: '1' })).nextCursor!;
    expectError(
      await call('GET', `/v1/apps/${w.appId}/deliveries`, {
        key: ctx.adminKey,
        query: { errorClass: 'tls', cursor: messageCursor },
      }),
      400,
      'invalid_cursor',
      'cursor',
    );

    // A tiny budget: each request reads one slice, answers short (the first pages empty) and says where
    // it got to; the cursor goes on from there. Read in one statement, the first page would have held
    // both.
    tinyBudget();
    const pages = await allPages('deliveries', w.appId, { errorClass: 'tls', limit: '10' });
    expect(idsOf(pages)).toEqual(expected);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]!.data).toEqual([]);
    expect(pages[0]!.searchedBackTo).toEqual(expect.any(String));
    const reached = pages.map((p) => Date.parse(p.searchedBackTo!));
    expect([...reached].sort((a, b) => b - a)).toEqual(reached);
  });

  it('keeps every other filter, and walks for the event type, status code and attempts too', async () => {
    expect((await page('deliveries', w.appId, { errorClass: 'tls', endpointId: w.endpoints[0]! })).data).toEqual([
      expect.objectContaining({ messageId: oldest.messageId, endpointId: w.endpoints[0] }),
    ]);
    expect((await page('deliveries', w.appId, { errorClass: 'tls', state: 'retrying' })).data).toHaveLength(2);
    expect((await page('deliveries', w.appId, { errorClass: 'tls', state: 'dead' })).data).toEqual([]);
    // The newer one's message is invoice.paid (i = 12), the oldest's too (i = 48).
    expect((await page('deliveries', w.appId, { errorClass: 'tls', eventType: 'user.created' })).data).toEqual([]);
    for (const query of [{ eventType: 'user.created' }, { minAttempts: '3' }, { attemptCount: '3' }] as Record<
      string,
      string
    >[]) {
      const walked = await page('deliveries', w.appId, query);
      expect(walked.searchedBackTo, JSON.stringify(query)).toEqual(expect.any(String));
    }
    expect((await page('deliveries', w.appId, { minAttempts: '3' })).data).toHaveLength(2);
    const byType = await page('deliveries', w.appId, { eventType: 'user.created', limit: '100' });
    expect(byType.data).toHaveLength(48);
    // Narrowed by a key first, or by nothing an index cannot serve: one query, as before.
    for (const query of [
      {},
      { state: 'retrying' },
      { endpointId: w.endpoints[0]! },
      { errorClass: 'tls', messageId: oldest.messageId },
    ] as Record<string, string>[]) {
      expect((await page('deliveries', w.appId, query)).searchedBackTo, JSON.stringify(query)).toBeNull();
    }
  });
});

describe("the message list's conditions on deliveries", () => {
  it('walks the deliveries, lists each message once however its deliveries fall across pages', async () => {
    const w = await world('messages-by-deliveries');
    const messages: Awaited<ReturnType<typeof messageAt>>[] = [];
    for (let i = 40; i >= 1; i--) messages.unshift(await messageAt(w, ago(i * 3 * HOUR), { n: i }));
    // Three messages failed with a TLS error: the newest and the oldest on both endpoints, one between
    // on one; and two messages of one millisecond, each on one endpoint.
    const failed = [messages[0]!, messages[17]!, messages[39]!];
    const twin = await messageAt(w, ago(50 * HOUR), { twin: 1 });
    const twinAt = idTimeMs(twin.messageId);
    const { rows } = await ctx.db.pool.query<{ id: string }>(
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
       VALUES (hookline.new_uuid(hookline.id_at('', to_timestamp($2 / 1000.0))::uuid), $1, 'invoice.paid',
               '{"twin": 2}', to_timestamp($2 / 1000.0)) RETURNING hookline.public_id('msg', id) AS id`,
      [w.appId, twinAt],
    );
    const twinMessageIds = [twin.messageId, rows[0]!.id];
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
              last_error_class, claimable_at, created_at)
       VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, 'invoice.paid', 'pending', 1, 'tls', now() + interval '1 hour',
               to_timestamp($4 / 1000.0))`,
      [w.appId, rows[0]!.id, w.endpoints[0], twinAt],
    );
    await ctx.db.pool.query(
      `UPDATE hookline.deliveries SET last_error_class = 'tls', attempt_count = 2
        WHERE app_id = $1
          AND (hookline.public_id('msg', message_id) = ANY ($2) OR (message_id = hookline.uuid_of($3) AND endpoint_id = $4))`,
      [w.appId, [failed[0]!.messageId, failed[2]!.messageId, twin.messageId], failed[1]!.messageId, w.endpoints[1]],
    );
    // Newest first by id: an id starts with its millisecond.
    const expected = [...failed.map((m) => m.messageId), ...twinMessageIds].sort().reverse();

    const once = await page('messages', w.appId, { errorClass: 'tls' });
    expect(once.data.map((row) => row.id)).toEqual(expected);
    expect(once.nextCursor).toBeNull();
    // Pages of one: each message once, in order; the twins' millisecond is read whole, so its page
    // holds both.
    const single = await allPages('messages', w.appId, { errorClass: 'tls', limit: '1' });
    expect(idsOf(single)).toEqual(expected);
    expect(single.some((p) => p.data.length === 2)).toBe(true);
    tinyBudget();
    const walked = await allPages('messages', w.appId, { errorClass: 'tls', limit: '2' });
    expect(idsOf(walked)).toEqual(expected);
    expect(walked.length).toBeGreaterThan(3);
    resetBudget();
    // With the event type, and with the other conditions on deliveries.
    expect((await page('messages', w.appId, { errorClass: 'tls', eventType: 'user.created' })).data).toEqual([]);
    expect((await page('messages', w.appId, { minAttempts: '2' })).data.map((row) => row.id)).toEqual(
      expected.filter((id) => id !== twinMessageIds[1]),
    );
  });
});

describe('the portal', () => {
  it("finds the customer's own deliveries only", async () => {
    const mine = await world('portal-mine', 1);
    const theirs = await world('portal-theirs', 1);
    const own = await messageAt(mine, ago(3 * HOUR), { secret: 'shared-term', owner: 'mine' });
    // Newer, the same words: never found from the other app's portal.
    await messageAt(theirs, ago(HOUR), { secret: 'shared-term', owner: 'theirs' });
    const token = await portalToken(mine.appId);
    const found = await portalCall('GET', `/v1/apps/${mine.appId}/deliveries?search=shared-term`, { token });
    expect(found.status, found.text).toBe(200);
    expect((found.body as SearchPage).data.map((row) => row.id)).toEqual(own.deliveries);
    const byPath = await portalCall('GET', `/v1/apps/${mine.appId}/deliveries?payloadPath=owner&payloadValue=theirs`, {
      token,
    });
    expect((byPath.body as SearchPage).data).toEqual([]);
    const across = await portalCall('GET', `/v1/apps/${theirs.appId}/deliveries?search=shared-term`, { token });
    expect(across.status).toBe(404);
  });
});

describe('a budget that holds however dense the history', () => {
  it('cuts a slice that would overrun the budget, answers in time, and still gets to the end', async () => {
    const w = await world('slow-rows', 1);
    // An hour three days ago with a message every 90 s, then nothing: slices grow over the empty days
    // (fast, nothing to read), and the one that reaches the busy hour would read all 40 rows at 40 ms
    // each (pg_sleep in the condition): 1.6 s against a 300 ms budget.
    for (let i = 40; i >= 1; i--) await messageAt(w, ago(72 * HOUR + i * 90_000), { n: i });
    // Matches nothing, after sleeping on every row (void is never NULL).
    const condition = Prisma.sql`pg_sleep(0.04 + 0 * length(m.id::text)) IS NULL`;
    const budgetMs = 300;
    let start: SearchPosition | undefined;
    let pages = 0;
    for (;;) {
      const startedAt = performance.now();
      const result = await walkBack({ appId: w.appId, condition, start, budgetMs, take: async () => null });
      const tookMs = performance.now() - startedAt;
      pages++;
      // The budget and the round trips around a cancelled query; a one-minute first slice (one or
      // two rows here) may add its 80 ms.
      expect(tookMs, `page ${pages}`).toBeLessThan(budgetMs + 200);
      if (!result.next) break;
      if (start) expect(idTimeMs(result.next.before)).toBeLessThanOrEqual(idTimeMs(start.before));
      start = result.next;
      expect(pages).toBeLessThan(100);
    }
    // 1.6 s of work in pages of 300 ms: several pages, and the walk reached the end.
    expect(pages).toBeGreaterThan(3);
  });
});

describe('a millisecond of more than a chunk', () => {
  it('lists every message of it once, when one millisecond names more than a page and a chunk of 500', async () => {
    const w = await world('one-busy-millisecond', 1);
    const at = Date.now() - 3 * HOUR;
    // 600 messages of one millisecond (a bulk insert), each with one delivery that timed out.
    await ctx.db.pool.query(
      `WITH m AS (
         INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at)
         SELECT hookline.new_uuid(hookline.id_at('', to_timestamp($2::bigint / 1000.0))::uuid), $1,
                'invoice.paid', '{}', to_timestamp($2::bigint / 1000.0)
           FROM generate_series(1, 600) RETURNING id, created_at)
       INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
              last_error_class, created_at)
       SELECT hookline.new_uuid(m.id), $1, m.id, $3, 'invoice.paid', 'dead', 3, 'timeout', m.created_at FROM m`,
      [w.appId, at, w.endpoints[0]],
    );
    await messageAt(w, new Date(at - HOUR), { older: true });
    const pages = await allPages('messages', w.appId, { errorClass: 'timeout', limit: '50' });
    const ids = idsOf(pages);
    expect(ids.length).toBe(600);
    expect(new Set(ids).size).toBe(600);
    // The explorer's walk lists each delivery once, pages of 50.
    const deliveries = await allPages('deliveries', w.appId, { errorClass: 'timeout', limit: '50' });
    expect(new Set(idsOf(deliveries)).size).toBe(600);
    expect(idsOf(deliveries).length).toBe(600);
  });
});

describe('a walk of whole milliseconds', () => {
  it('never splits a millisecond between two calls of take, even where a chunk of 500 ends inside one', async () => {
    const w = await world('whole-milliseconds', 1);
    const base = Date.now() - 2 * HOUR;
    // 25 milliseconds of 21 deliveries each: the first chunk of 500 ends inside the 24th.
    await ctx.db.pool.query(
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, created_at)
       SELECT hookline.new_uuid(hookline.id_at('', to_timestamp(($2::bigint + ms) / 1000.0))::uuid), $1,
              hookline.new_uuid(hookline.id_at('', to_timestamp(($2::bigint + ms) / 1000.0))::uuid), $3,
              'invoice.paid', 'succeeded', to_timestamp(($2::bigint + ms) / 1000.0)
         FROM generate_series(0, 24) AS ms, generate_series(1, 21) AS k`,
      [w.appId, base, w.endpoints[0]],
    );
    await messageAt(w, new Date(base - HOUR), { oldest: true });
    const calls: string[][] = [];
    const walk = await walkBack({
      appId: w.appId,
      table: 'deliveries',
      condition: Prisma.sql`d.state = 'succeeded'`,
      wholeMilliseconds: true,
      budgetMs: 60_000,
      take: async (ids) => {
        calls.push(ids);
        return null;
      },
    });
    expect(walk.next).toBeNull();
    const all = calls.flat();
    expect(new Set(all).size).toBe(525);
    expect(all.length).toBe(525);
    expect(calls.length).toBeGreaterThan(1);
    for (const ids of calls) {
      const perMs = new Map<number, number>();
      for (const id of ids) perMs.set(idTimeMs(id), (perMs.get(idTimeMs(id)) ?? 0) + 1);
      expect([...perMs.values()].every((count) => count === 21)).toBe(true);
    }
  });
});

describe('a range over many time partitions', () => {
  it('walks back through every partition and finds every match exactly once', async () => {
    const w = await world('partitions', 1);
    // Hourly periods: first the overflow becomes a period up to a few hours ahead (as the worker's
    // first run does); then, with the clock moved an hour on and periods wanted 30 hours ahead, a
    // period for each hour up to there.
    await maintainTimePartitions(ctx.db.pool, { retentionMs: null, periodMs: HOUR });
    const later = Date.now() + HOUR;
    const result = await maintainTimePartitions(ctx.db.pool, {
      retentionMs: null,
      periodMs: HOUR,
      aheadMs: 30 * HOUR,
      now: () => later,
    });
    expect(result?.created.length).toBeGreaterThanOrEqual(25);
    // A match in each of 24 hours ahead (in the periods just made), and misses between them.
    const start = Math.ceil((Date.now() + 5 * HOUR) / HOUR) * HOUR;
    const matches: Awaited<ReturnType<typeof messageAt>>[] = [];
    for (let hour = 0; hour < 24; hour++) {
      matches.unshift(await messageAt(w, new Date(start + hour * HOUR + 10 * MINUTE), { code: `z-${hour}` }));
      await messageAt(w, new Date(start + hour * HOUR + 40 * MINUTE), { code: `y-${hour}` });
    }
    const { rows } = await ctx.db.pool.query<{ partitions: number }>(
      `SELECT count(DISTINCT tableoid)::int AS partitions FROM hookline.messages WHERE app_id = $1`,
      [w.appId],
    );
    expect(rows[0]!.partitions).toBe(24);
    const range = { from: new Date(start).toISOString(), to: new Date(start + 25 * HOUR).toISOString() };

    const once = await page('messages', w.appId, {
      ...range,
      payloadPath: 'code',
      payloadValue: 'z-',
      payloadMatch: 'contains',
      limit: '100',
    });
    expect(once.data.map((row) => row.id)).toEqual(matches.map((m) => m.messageId));
    expect(once.nextCursor).toBeNull();

    tinyBudget();
    const pages = await allPages('messages', w.appId, { ...range, search: '"z-' });
    expect(idsOf(pages)).toEqual(matches.map((m) => m.messageId));
    // A tiny budget searches one slice a request (a slice may span several partitions): the walk takes
    // several pages over the 24 partitions, and finds each match once.
    expect(pages.length).toBeGreaterThan(1);
    const deliveries = await allPages('deliveries', w.appId, { ...range, search: '"z-' });
    expect(idsOf(deliveries)).toEqual(matches.flatMap((m) => m.deliveries));
  });
});
