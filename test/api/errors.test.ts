// The error contract: one wire shape, each status used where it belongs, the payload limit, content
// types, and inputs that once reached the database as errors (500) now refused as the client's mistake.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { appLimitedKey, call, ORIGIN, setUpApiTest, type ApiTestContext, type CallOptions } from './support/api';
import { createMember } from './support/members';
import { operations } from '../../lib/contract/operations';
import { createApiKey } from '../../lib/domain/api-keys/create-api-key';
import { getPrisma } from '../../lib/database/db';
import { expectError } from './support/expect-error';
import { createAppWorld, snapshotRows, type AppWorld } from './support/world';

let ctx: ApiTestContext;
let world: AppWorld;
let otherWorld: AppWorld;
let keyOfOther: string;

const MB = 1_048_576;

beforeAll(async () => {
  ctx = await setUpApiTest();
  world = await createAppWorld(ctx.db.pool, 'errors');
  otherWorld = await createAppWorld(ctx.db.pool, 'other');
  keyOfOther = await appLimitedKey(otherWorld.appId);
  await ctx.db.pool.query(
    `UPDATE hookline.deliveries SET state = 'delivering', lease_owner = 'w' WHERE id = hookline.uuid_of($1)`,
    [otherWorld.deliveryId],
  );
});

describe('each status where it belongs', () => {
  const cases: [string, number, string, () => [string, string, CallOptions]][] = [
    [
      'malformed JSON',
      400,
      'invalid_json',
      () => [
        'POST',
        `/v1/apps/${world.appId}/messages`,
        { key: ctx.adminKey, rawBody: '{"eventType":', headers: { 'content-type': 'application/json' } },
      ],
    ],
    [
      'a bad query parameter',
      400,
      'invalid_query',
      () => ['GET', `/v1/apps/${world.appId}/deliveries`, { key: ctx.adminKey, query: { state: 'lost' } }],
    ],
    [
      'a forged cursor',
      400,
      'invalid_cursor',
      () => ['GET', `/v1/apps/${world.appId}/messages`, { key: ctx.adminKey, query: { cursor: 'forged' } }],
    ],
    ['no credentials', 401, 'unauthorized', () => ['GET', '/v1/apps', {}]],
    [
      'an app-limited key on a deployment operation',
      403,
      'key_not_allowed',
      () => ['POST', '/v1/apps', { key: keyOfOther, body: { name: 'x' } }],
    ],
    [
      'an unknown id',
      404,
      'not_found',
      () => ['GET', `/v1/apps/${world.appId}/endpoints/ep_nope`, { key: ctx.adminKey }],
    ],
    [
      "another app's resource",
      404,
      'not_found',
      () => ['GET', `/v1/apps/${world.appId}/messages/${world.messageId}`, { key: keyOfOther }],
    ],
    [
      'an existing event type name',
      409,
      'event_type_exists',
      () => ['POST', `/v1/apps/${world.appId}/event-types`, { key: ctx.adminKey, body: { name: 'invoice.paid' } }],
    ],
    [
      'replaying a delivery in flight',
      409,
      'delivery_in_flight',
      () => ['POST', `/v1/apps/${otherWorld.appId}/deliveries/${otherWorld.deliveryId}/replay`, { key: ctx.adminKey }],
    ],
    [
      'cancelling a finished delivery',
      409,
      'delivery_finished',
      () => ['POST', `/v1/apps/${world.appId}/deliveries/${world.deliveryId}/cancel`, { key: ctx.adminKey }],
    ],
    [
      'a body over the limit',
      413,
      'payload_too_large',
      () => [
        'POST',
        `/v1/apps/${world.appId}/messages`,
        { key: ctx.adminKey, body: { eventType: 'invoice.paid', payload: { s: 'x'.repeat(MB) } } },
      ],
    ],
    [
      'a body that is not JSON',
      415,
      'unsupported_media_type',
      () => [
        'POST',
        `/v1/apps/${world.appId}/messages`,
        {
          key: ctx.adminKey,
          rawBody: 'eventType=invoice.paid',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
      ],
    ],
    [
      'a value that is not acceptable',
      422,
      'validation_failed',
      () => ['POST', `/v1/apps/${world.appId}/endpoints`, { key: ctx.adminKey, body: { url: 'ftp://example.com' } }],
    ],
  ];

  it.each(cases)('%s: %i %s', async (_label, status, code, request) => {
    const before = await snapshotRows(ctx.db.pool);
    const [method, path, options] = request();
    expectError(await call(method, path, options), status, code);
    expect(await snapshotRows(ctx.db.pool)).toEqual(before);
  });

  it('429 when the rate limit is exceeded', async () => {
    process.env.HOOKLINE_API_RATE_LIMIT = '2';
    resetApiSettings();
    await resetRateLimits();
    // A standing clock: no token comes back between the requests, however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      await call('GET', '/v1/apps', { key: ctx.adminKey });
      await call('GET', '/v1/apps', { key: ctx.adminKey });
      const limited = await call('GET', '/v1/apps', { key: ctx.adminKey });
      expectError(limited, 429, 'rate_limited');
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      vi.useRealTimers();
      process.env.HOOKLINE_API_RATE_LIMIT = '0';
      resetApiSettings();
    }
  });

  it('validation errors list every problem with its path', async () => {
    const response = await call('POST', `/v1/apps/${world.appId}/endpoints`, {
      key: ctx.adminKey,
      body: { url: 42, maxConcurrency: 'many', eventTypes: ['ok.type', 'bad type'] },
    });
    expectError(response, 422, 'validation_failed');
    expect(response.body.error.details.map((problem: { path: string }) => problem.path).sort()).toEqual([
      'eventTypes.1',
      'maxConcurrency',
      'url',
    ]);
    for (const problem of response.body.error.details)
      expect(problem).toEqual({ path: expect.any(String), message: expect.any(String) });
  });
});

describe('the payload limit (HOOKLINE_MAX_PAYLOAD_BYTES, default 1 MB)', () => {
  const send = (body: string, headers: Record<string, string> = {}) =>
    call('POST', `/v1/apps/${world.appId}/messages`, {
      key: ctx.adminKey,
      rawBody: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  /** A message body of exactly `bytes` bytes. */
  const bodyOf = (bytes: number) => {
    const envelope = JSON.stringify({ eventType: 'invoice.paid', payload: { s: '' } });
    return JSON.stringify({ eventType: 'invoice.paid', payload: { s: 'x'.repeat(bytes - envelope.length) } });
  };

  it('accepts a body of exactly 1 MB and refuses one byte more with 413, recording nothing', async () => {
    expect(Buffer.byteLength(bodyOf(MB))).toBe(MB);
    const accepted = await send(bodyOf(MB));
    expect(accepted.status, accepted.text.slice(0, 200)).toBe(202);
    const before = await countRows(ctx.db.pool, 'messages');
    const refused = await send(bodyOf(MB + 1));
    expectError(refused, 413, 'payload_too_large');
    expect(refused.body.error.message).toContain('HOOKLINE_MAX_PAYLOAD_BYTES');
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('counts multi-byte characters as the bytes they are', async () => {
    const envelope = JSON.stringify({ eventType: 'invoice.paid', payload: { s: '' } });
    const body = JSON.stringify({
      eventType: 'invoice.paid',
      payload: { s: '€'.repeat(Math.ceil((MB - envelope.length) / 3) + 1) },
    });
    expect(body.length).toBeLessThan(MB);
    expectError(await send(body), 413, 'payload_too_large');
  });

  it('refuses at once when Content-Length announces too much, and counts when it understates', async () => {
    expectError(await send('{}', { 'content-length': String(MB + 1) }), 413, 'payload_too_large');
    expectError(await send(bodyOf(2 * MB), { 'content-length': '100' }), 413, 'payload_too_large');
  });

  it('applies to every operation with a body', async () => {
    const big = JSON.stringify({ url: 'https://example.com', description: 'd'.repeat(MB) });
    expectError(
      await call('POST', `/v1/apps/${world.appId}/endpoints`, {
        key: ctx.adminKey,
        rawBody: big,
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'payload_too_large',
    );
  });

  it('follows the configured limit', async () => {
    process.env.HOOKLINE_MAX_PAYLOAD_BYTES = '2048';
    resetApiSettings();
    try {
      expect((await send(bodyOf(2048))).status).toBe(202);
      const refused = await send(bodyOf(2049));
      expectError(refused, 413, 'payload_too_large');
      expect(refused.body.error.message).toContain('2048');
    } finally {
      delete process.env.HOOKLINE_MAX_PAYLOAD_BYTES;
      resetApiSettings();
    }
  });
});

describe('content types', () => {
  const send = (contentType: string | undefined) =>
    call('POST', `/v1/apps/${world.appId}/messages`, {
      key: ctx.adminKey,
      rawBody: JSON.stringify({ eventType: 'invoice.paid', payload: {} }),
      headers: contentType === undefined ? {} : { 'content-type': contentType },
    });

  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.acme+json'])(
    'accepts %s',
    async (type) => {
      expect((await send(type)).status).toBe(202);
    },
  );

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'text/plain;charset=UTF-8',
  ])('answers 415 to %s', async (type) => {
    const response = await send(type);
    expectError(response, 415, 'unsupported_media_type');
    expect(response.body.error.message).toContain('application/json');
  });

  it('an empty body reads as {} whatever the content type, so all-optional bodies may be left out', async () => {
    const { id } = await createEndpoint(ctx.db.pool, world.appId, 'https://example.com/empty-body');
    expect(
      (await call('POST', `/v1/apps/${world.appId}/endpoints/${id}/disable`, { key: ctx.adminKey, rawBody: '' }))
        .status,
    ).toBe(200);
    expectError(
      await call('POST', `/v1/apps/${world.appId}/messages`, { key: ctx.adminKey, rawBody: '' }),
      422,
      'validation_failed',
      'eventType',
    );
  });
});

describe('a body is taken as sent, or refused saying why', () => {
  const raw = (path: string, bytes: Uint8Array | string) =>
    call('POST', path, { key: ctx.adminKey, rawBody: bytes, headers: { 'content-type': 'application/json' } });
  const utf8Body = (before: string, bad: number[], after: string) =>
    new Uint8Array([...Buffer.from(before), ...bad, ...Buffer.from(after)]);

  it.each([
    ['a lead byte without its continuation', [0xc3], '("}'],
    ['a lone continuation byte', [0x80], '"}'],
    ['an overlong encoding of "/"', [0xc0, 0xaf], '"}'],
    ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80], '"}'],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], '"}'],
    ['a sequence cut off by the end of the body', [0xe2, 0x82], ''],
  ])('refuses invalid UTF-8 (%s) with 400 naming the offset, creating nothing', async (_label, bad, after) => {
    const before = await countRows(ctx.db.pool, 'api_keys');
    // {"name":"\xc3("} once created a key named "\ufffd(".
    const response = await raw('/v1/api-keys', utf8Body('{"name":"', bad, after));
    expectError(response, 400, 'invalid_json');
    expect(response.body.error.message).toMatch(/not valid UTF-8: the bytes at offset 9 \(0x[0-9a-f]{2}/);
    expect(await countRows(ctx.db.pool, 'api_keys')).toBe(before);
  });

  it('takes valid multi-byte UTF-8 of every length, and a byte order mark', async () => {
    const name = 'é € 𝄞 key';
    const response = await raw(
      '/v1/api-keys',
      new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(JSON.stringify({ name }))]),
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.apiKey.name).toBe(name);
  });

  it('refuses numbers JavaScript would change with 422 naming each, recording nothing', async () => {
    const before = await countRows(ctx.db.pool, 'messages');
    const response = await raw(
      `/v1/apps/${world.appId}/messages`,
      '{"eventType":"invoice.paid","payload":{"a":1e999,"b":9007199254740993,"c":[0.1,{"d":1e-400}]}}',
    );
    expectError(response, 422, 'validation_failed', 'payload.a');
    expect(response.body.error.details).toEqual([
      {
        path: 'payload.a',
        message: '1e999 is beyond the range of a JavaScript number (it would become null); send it as a string',
      },
      {
        path: 'payload.b',
        message:
          '9007199254740993 cannot be held exactly by a JavaScript number (it would become 9007199254740992); send it as a string',
      },
      {
        path: 'payload.c.1.d',
        message: '1e-400 cannot be held exactly by a JavaScript number (it would become 0); send it as a string',
      },
    ]);
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('stores and sends every number it accepts as the value that was sent', async () => {
    const payload =
      '{"max":9007199254740991,"min":-9007199254740991,"tenth":0.1,"sum":0.30000000000000004,"trailing":1.50,' +
      '"exponent":1e2,"large":1.7976931348623157e308,"small":5e-324,"negativeZero":-0,"text":"9007199254740993",' +
      '"key\\"1e999":1}';
    const response = await raw(`/v1/apps/${world.appId}/messages`, `{"eventType":"invoice.paid","payload":${payload}}`);
    expect(response.status, response.text).toBe(202);
    // jsonb compares numbers as values (1.50 = 1.5, 1e2 = 100): the payload recorded, which the worker
    // sends as it is stored (payload::text), has the values the client sent.
    const { rows } = await ctx.db.pool.query<{ same: boolean }>(
      'SELECT payload = $2::jsonb AS same FROM hookline.messages WHERE id = hookline.uuid_of($1)',
      [response.body.id, payload],
    );
    expect(rows).toEqual([{ same: true }]);
  });
});

describe('inputs Postgres cannot take are the client’s mistake, never a 500', () => {
  const dateCases = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00'];

  it.each(dateCases)('the date %s in every date parameter', async (date) => {
    const requests: [string, string, CallOptions, number, string][] = [
      ['GET', `/v1/apps/${world.appId}/messages`, { query: { from: date } }, 400, 'from'],
      ['GET', `/v1/apps/${world.appId}/messages`, { query: { to: date } }, 400, 'to'],
      ['GET', `/v1/apps/${world.appId}/deliveries`, { query: { from: date } }, 400, 'from'],
      ['GET', '/v1/stats', { query: { to: date } }, 400, 'to'],
      [
        'POST',
        `/v1/apps/${world.appId}/endpoints/${world.endpointId}/recover`,
        { body: { since: date } },
        422,
        'since',
      ],
      ['POST', `/v1/apps/${world.appId}/deliveries/replay`, { body: { filter: { to: date } } }, 422, 'filter.to'],
    ];
    for (const [method, path, options, status, field] of requests) {
      const response = await call(method, path, { key: ctx.adminKey, ...options });
      expectError(response, status, status === 400 ? 'invalid_query' : 'validation_failed');
      expect(JSON.stringify(response.body.error.details)).toContain(field.split('.').at(-1));
    }
  });

  it('the earliest and latest dates Postgres and the API share are accepted', async () => {
    for (const date of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      expect(
        (await call('GET', `/v1/apps/${world.appId}/messages`, { key: ctx.adminKey, query: { from: date } })).status,
      ).toBe(200);
    }
    const response = await call('GET', '/v1/stats', {
      key: ctx.adminKey,
      query: { from: '0001-01-01T00:00:00Z', to: '0001-01-02T00:00:00Z', bucketSeconds: 3600 },
    });
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ['a lone surrogate in a JSON string', '{"eventType":"invoice.paid","payload":{"s":"\\ud800"}}', 'payload.s'],
    ['a NUL escape in a JSON string', '{"eventType":"invoice.paid","payload":{"s":"\\u0000"}}', 'payload.s'],
    ['a NUL escape in a payload key', '{"eventType":"invoice.paid","payload":{"\\u0000":1}}', 'payload.\u0000'],
  ])('%s is a 422 naming it', async (_label, rawBody, field) => {
    const before = await countRows(ctx.db.pool, 'messages');
    expectError(
      await call('POST', `/v1/apps/${world.appId}/messages`, {
        key: ctx.adminKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      }),
      422,
      'validation_failed',
      field,
    );
    expect(await countRows(ctx.db.pool, 'messages')).toBe(before);
  });

  it('a NUL in a query value is a 400, in a path segment a 404', async () => {
    expectError(
      await call('GET', `/v1/apps/${world.appId}/messages?eventType=a%00b`, { key: ctx.adminKey }),
      400,
      'invalid_query',
      'eventType',
    );
    expectError(await call('GET', `/v1/apps/${world.appId}/endpoints/ep%00x`, { key: ctx.adminKey }), 404, 'not_found');
  });

  it('numbers beyond every range are a 400 or 422, not an overflow', async () => {
    expectError(
      await call('GET', `/v1/apps/${world.appId}/messages`, { key: ctx.adminKey, query: { limit: '1e400' } }),
      400,
      'invalid_query',
      'limit',
    );
    expectError(
      await call('GET', `/v1/apps/${world.appId}/deliveries`, {
        key: ctx.adminKey,
        query: { statusCode: '99999999999' },
      }),
      400,
      'invalid_query',
      'statusCode',
    );
    expectError(
      await call('POST', `/v1/apps/${world.appId}/endpoints`, {
        key: ctx.adminKey,
        body: { url: 'https://example.com', maxConcurrency: 2 ** 53 + 2 },
      }),
      422,
      'validation_failed',
      'maxConcurrency',
    );
  });

  it('ids of every length and shape are a 404', async () => {
    for (const id of ['x'.repeat(201), '💥', '%', "' OR 1=1 --", '..']) {
      expectError(
        await call('GET', `/v1/apps/${world.appId}/deliveries/${encodeURIComponent(id)}`, { key: ctx.adminKey }),
        404,
        'not_found',
      );
    }
  });

  it('an app created through SQL with an id of its own works through the API', async () => {
    await ctx.db.pool.query(`INSERT INTO hookline.apps (id, name) VALUES ('app_acme', 'Acme')`);
    await createEventType(ctx.db.pool, 'app_acme', 'spice.harvested');
    expect((await call('GET', '/v1/apps/app_acme', { key: ctx.adminKey })).status).toBe(200);
    expect(
      (
        await call('POST', '/v1/apps/app_acme/messages', {
          key: ctx.adminKey,
          body: { eventType: 'spice.harvested', payload: {} },
        })
      ).status,
    ).toBe(202);
    expect(await createApp(ctx.db.pool, 'after')).toMatch(/^app_/);
  });
});

// Operations that take no body used to skip reading it: a 2 MB or malformed body got a 200 (and did
// whatever the operation does). They apply the rules of every other route; an empty body stays fine.
describe('operations that take no body', () => {
  let ownerCookie: string | undefined;
  const bodiless = Object.values(operations).filter((operation) => operation.method !== 'GET' && !operation.body);

  it('are the ones this test expects', () => {
    expect(bodiless.map((operation) => operation.operationId).sort()).toEqual([
      'acknowledgeIssue',
      'cancelDelivery',
      'cancelJob',
      'deleteAlertRule',
      'deleteApp',
      'deleteEndpoint',
      'deleteEventType',
      'deleteOperationalEndpoint',
      'enableEndpoint',
      'removeMember',
      'reopenIssue',
      'replayDelivery',
      'replayMessage',
      'resolveIssue',
      'revokeApiKey',
      'revokeInvitation',
      'revokeMemberSessions',
      'revokePortalSession',
      'unmuteIssue',
    ]);
  });

  const pathOf = async (template: string) => {
    const { apiKey } = await createApiKey({ name: 'bodiless', appId: null }, { prisma: getPrisma(ctx.db.url) });
    const session = await ctx.db.pool.query<{ id: string }>(
      `INSERT INTO hookline.portal_sessions (app_id, token_hash, expires_at)
       VALUES ($1, md5(random()::text), now() + interval '1 hour') RETURNING id`,
      [world.appId],
    );
    const ids: Record<string, string> = {
      appId: world.appId,
      endpointId: world.endpointId,
      eventTypeName: 'invoice.paid',
      messageId: world.messageId,
      deliveryId: world.deliveryId,
      jobId: world.jobId,
      keyId: apiKey.id,
      // Operational events: ids that need not exist, the body is refused before anything is looked up.
      issueId: 'iss_bodiless',
      ruleId: 'alrt_bodiless',
      sessionId: session.rows[0]!.id,
      // Members: ids that need not exist either.
      memberId: 'usr_bodiless',
      invitationId: 'inv_bodiless',
    };
    return `/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!)}`;
  };
  const json = { 'content-type': 'application/json' };

  it.each(bodiless.map((operation) => [operation.operationId, operation] as const))(
    '%s: malformed JSON is 400, a 2 MB body 413, unknown fields 422, and nothing changes',
    async (_id, operation) => {
      const path = await pathOf(operation.path);
      // Members are an owner's business, not a key's (a key would get 403 before its body is read).
      const credentials: CallOptions =
        operation.path.startsWith('/members') || operation.path.startsWith('/invitations')
          ? {
              cookie: (ownerCookie ??= (await createMember(ctx.db.pool, { email: 'owner@errors.test', role: 'owner' }))
                .cookie),
            }
          : { key: ctx.adminKey };
      const before = await snapshotRows(ctx.db.pool);
      const cases: [CallOptions, number, string][] = [
        [{ rawBody: '{"reason":', headers: json }, 400, 'invalid_json'],
        [{ rawBody: JSON.stringify({ s: 'x'.repeat(2 * MB) }), headers: json }, 413, 'payload_too_large'],
        [{ rawBody: '{"force": true}', headers: json }, 422, 'validation_failed'],
        [
          { rawBody: 'force=true', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          415,
          'unsupported_media_type',
        ],
      ];
      for (const [options, status, code] of cases) {
        const headers = { origin: ORIGIN, ...options.headers };
        expectError(await call(operation.method, path, { ...credentials, ...options, headers }), status, code);
      }
      expect(await snapshotRows(ctx.db.pool)).toEqual(before);
    },
  );

  it('accept an empty body, or {}', async () => {
    const enable = `/v1/apps/${world.appId}/endpoints/${world.endpointId}/enable`;
    expect((await call('POST', enable, { key: ctx.adminKey })).status).toBe(200);
    expect((await call('POST', enable, { key: ctx.adminKey, rawBody: '', headers: json })).status).toBe(200);
    expect((await call('POST', enable, { key: ctx.adminKey, rawBody: '{}', headers: json })).status).toBe(200);
  });
});

// A problem's path is the caller's own keys joined by "."; through the 64 levels a body may nest, or
// with one very long key, it would make the answer larger than anything it explains.
describe('a field path in an error is bounded', () => {
  const post = (payload: string) =>
    call('POST', `/v1/apps/${world.appId}/messages`, {
      key: ctx.adminKey,
      rawBody: `{"eventType":"invoice.paid","payload":${payload}}`,
      headers: { 'content-type': 'application/json' },
    });
  const paths = (response: { body: { error: { details: { path: string }[] } } }) =>
    response.body.error.details.map((problem) => problem.path);

  it('100 levels of 150-character keys: the first segments and "…", the answer under 1 KB', async () => {
    const key = `k${'x'.repeat(149)}`;
    const response = await post(`${`{"${key}":`.repeat(100)}1${'}'.repeat(100)}`);
    expectError(response, 422, 'validation_failed');
    const [path] = paths(response);
    expect(path).toBe(`payload.${key.slice(0, 112)}…`);
    expect(response.body.error.message).toBe(`${path}: is nested more than 64 levels deep`);
    expect(response.text.length).toBeLessThan(1024);
  });

  it('100 levels of one-letter keys: 12 segments at most', async () => {
    const response = await post(`${'{"d":'.repeat(100)}1${'}'.repeat(100)}`);
    expectError(response, 422, 'validation_failed');
    expect(paths(response)).toEqual([`payload${'.d'.repeat(11)}…`]);
  });

  it('20 problems, each under a key of 15,000 characters: each path cut, the answer under 5 KB', async () => {
    const entries = Array.from({ length: 25 }, (_, i) => `"${i}${'é'.repeat(15_000)}\\u0000":1`);
    const response = await post(`{${entries.join(',')}}`);
    expectError(response, 422, 'validation_failed');
    expect(paths(response)).toHaveLength(20);
    for (const path of paths(response)) {
      expect(path).toMatch(/^payload\.\d+é+…$/);
      expect(path.length).toBeLessThanOrEqual(121);
    }
    expect(response.text.length).toBeLessThan(5000);
  });

  it('a query parameter with a 5,000-character name: cut the same way', async () => {
    const response = await call('GET', `/v1/apps/${world.appId}/deliveries?${'q'.repeat(5000)}=%00`, {
      key: ctx.adminKey,
    });
    expectError(response, 400, 'invalid_query');
    expect(paths(response)).toEqual([`${'q'.repeat(120)}…`]);
    expect(response.text.length).toBeLessThan(1024);
  });

  it('a short path stays whole', async () => {
    const response = await post(`{"a":{"b":[0,"\\u0000"]}}`);
    expect(paths(response)).toEqual(['payload.a.b.1']);
  });
});
