// API keys: shown once at creation, stored as a sha256 only, revocable with immediate effect,
// last-used time kept, deployment-wide or limited to one app, and never written to a log or shown in
// any later response.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../support/fixtures';
import {
  appLimitedKey,
  call,
  setUpApiTest,
  type ApiTestContext,
  type CallOptions,
  type CallResult,
} from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;

// Everything this file's process writes (the structured logger writes to stdout) and every response
// body after creation, searched for keys at the end.
const output: string[] = [];
const laterResponses: CallResult[] = [];
const createdKeys: string[] = [];
const restoreOutput: (() => void)[] = [];

// Captured, not passed on: the expected error log of the 500 below would only clutter the test output.
function captureOutput(stream: NodeJS.WriteStream) {
  const original = stream.write;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stream.write;
  restoreOutput.push(() => {
    stream.write = original;
  });
}

/** A call whose response must not show any key. */
async function later(method: string, path: string, options: CallOptions = {}) {
  const response = await call(method, path, options);
  laterResponses.push(response);
  return response;
}

async function createKey(body: Record<string, unknown>) {
  const response = await call('POST', '/v1/api-keys', { key: ctx.adminKey, body });
  expect(response.status, response.text).toBe(201);
  createdKeys.push(response.body.key);
  return response;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  captureOutput(process.stdout);
  captureOutput(process.stderr);
  ctx = await setUpApiTest();
  createdKeys.push(ctx.adminKey);
});

afterAll(() => {
  for (const restore of restoreOutput) restore();
});

describe('POST /api-keys', () => {
  it('shows the key once, and stores only its sha256 and a short prefix', async () => {
    const created = await createKey({ name: 'deploy bot' });
    const { key, apiKey } = created.body;
    expect(key).toMatch(/^hl_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'deploy bot',
      appId: null,
      prefix: key.slice(0, 11),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      // Made with a key: no member created it (test/api/members.test.ts covers a member's).
      createdBy: null,
    });
    const { rows } = await ctx.db.pool.query(
      'SELECT key_hash, prefix, t::text AS row FROM hookline.api_keys t WHERE id = $1',
      [apiKey.id],
    );
    expect(rows[0].key_hash).toBe(sha256(key));
    expect(rows[0].row).not.toContain(key);
    expect(rows[0].row).not.toContain(key.slice(11));

    // Not in any table at all.
    const tables = await ctx.db.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'hookline' AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables.rows) {
      const found = await ctx.db.pool.query(`SELECT 1 FROM hookline.${table_name} t WHERE strpos(t::text, $1) > 0`, [
        key.slice(3),
      ]);
      expect(found.rowCount, table_name).toBe(0);
    }
  });

  it('lists keys without the keys or their hashes', async () => {
    const created = await createKey({ name: 'listed' });
    const list = await later('GET', '/v1/api-keys', { key: ctx.adminKey, query: { limit: 250 } });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((apiKey: { id: string }) => apiKey.id === created.body.apiKey.id);
    expect(Object.keys(listed).sort()).toEqual([
      'appId',
      'createdAt',
      'createdBy',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'revokedAt',
    ]);
    expect(list.text).not.toContain(sha256(created.body.key));
  });

  it('limits a key to one app: other apps do not exist for it', async () => {
    const own = await createApp(ctx.db.pool, 'own');
    const other = await createApp(ctx.db.pool, 'other');
    const created = await createKey({ name: 'app key', appId: own });
    expect(created.body.apiKey.appId).toBe(own);
    const key = created.body.key;
    expect((await later('GET', `/v1/apps/${own}`, { key })).status).toBe(200);
    expectError(await later('GET', `/v1/apps/${other}`, { key }), 404, 'not_found');
    expect((await later('GET', '/v1/apps', { key })).body.data.map((app: { id: string }) => app.id)).toEqual([own]);
  });

  it.each([
    ['an unknown app', { name: 'x', appId: 'app_unknown' }, 'appId'],
    ['a blank name', { name: ' ' }, 'name'],
    ['a missing name', {}, 'name'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const before = await ctx.db.pool.query('SELECT count(*)::int AS n FROM hookline.api_keys');
    expectError(await later('POST', '/v1/api-keys', { key: ctx.adminKey, body }), 422, 'validation_failed', field);
    expect((await ctx.db.pool.query('SELECT count(*)::int AS n FROM hookline.api_keys')).rows).toEqual(before.rows);
  });

  it('is for deployment-wide credentials only: an app-limited key gets 403, no key 401', async () => {
    const appId = await createApp(ctx.db.pool, 'no key admin');
    const limited = await appLimitedKey(appId);
    createdKeys.push(limited);
    expectError(
      await later('POST', '/v1/api-keys', { key: limited, body: { name: 'escalate' } }),
      403,
      'key_not_allowed',
    );
    expectError(await later('GET', '/v1/api-keys', { key: limited }), 403, 'key_not_allowed');
    expectError(await later('DELETE', `/v1/api-keys/key_whatever`, { key: limited }), 403, 'key_not_allowed');
    expectError(await later('GET', '/v1/api-keys'), 401, 'unauthorized');
  });
});

describe('DELETE /api-keys/{keyId} (revoke)', () => {
  it('takes effect at once: the next request with the key is a 401', async () => {
    const created = await createKey({ name: 'to revoke' });
    const { key, apiKey } = created.body;
    expect((await later('GET', '/v1/apps', { key })).status).toBe(200);

    const revoked = await later('DELETE', `/v1/api-keys/${apiKey.id}`, { key: ctx.adminKey });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: apiKey.id, revokedAt: expect.any(String) });

    const afterwards = await Promise.all(Array.from({ length: 20 }, () => later('GET', '/v1/apps', { key })));
    for (const response of afterwards) expectError(response, 401, 'unauthorized');
    const { rows } = await ctx.db.pool.query(
      'SELECT revoked_at IS NOT NULL AS revoked FROM hookline.api_keys WHERE id = $1',
      [apiKey.id],
    );
    expect(rows).toEqual([{ revoked: true }]);
  });

  it('a key can revoke itself; revoking again keeps the first time; unknown ids are 404', async () => {
    const created = await createKey({ name: 'self revoking' });
    const { key, apiKey } = created.body;
    const first = await later('DELETE', `/v1/api-keys/${apiKey.id}`, { key });
    expect(first.status).toBe(200);
    expectError(await later('GET', '/v1/apps', { key }), 401, 'unauthorized');
    const second = await later('DELETE', `/v1/api-keys/${apiKey.id}`, { key: ctx.adminKey });
    expect(second.body.revokedAt).toBe(first.body.revokedAt);
    expectError(await later('DELETE', '/v1/api-keys/key_unknown', { key: ctx.adminKey }), 404, 'not_found');
  });
});

describe('last used time', () => {
  it('is empty until the key is used, then the time of use, written at most once a minute', async () => {
    const created = await createKey({ name: 'usage' });
    const { key, apiKey } = created.body;
    const lastUsed = async () =>
      (
        await ctx.db.pool.query<{ last_used_at: Date | null }>(
          'SELECT last_used_at FROM hookline.api_keys WHERE id = $1',
          [apiKey.id],
        )
      ).rows[0]!.last_used_at;
    expect(await lastUsed()).toBeNull();

    await later('GET', '/v1/apps', { key });
    const firstUse = await lastUsed();
    expect(firstUse).not.toBeNull();
    expect(Math.abs(firstUse!.getTime() - Date.now())).toBeLessThan(10_000);
    const listed = await later('GET', '/v1/api-keys', { key: ctx.adminKey, query: { limit: 250 } });
    expect(listed.body.data.find((row: { id: string }) => row.id === apiKey.id).lastUsedAt).toBe(
      firstUse!.toISOString(),
    );

    // Within the minute: no write per request.
    await later('GET', '/v1/apps', { key });
    expect(await lastUsed()).toEqual(firstUse);

    // An hour later, the next use moves it.
    await ctx.db.pool.query(`UPDATE hookline.api_keys SET last_used_at = now() - interval '1 hour' WHERE id = $1`, [
      apiKey.id,
    ]);
    await later('GET', '/v1/apps', { key });
    expect(Math.abs((await lastUsed())!.getTime() - Date.now())).toBeLessThan(10_000);
  });

  it('is not moved by a revoked key', async () => {
    const created = await createKey({ name: 'revoked usage' });
    await later('DELETE', `/v1/api-keys/${created.body.apiKey.id}`, { key: ctx.adminKey });
    await later('GET', '/v1/apps', { key: created.body.key });
    const { rows } = await ctx.db.pool.query('SELECT last_used_at FROM hookline.api_keys WHERE id = $1', [
      created.body.apiKey.id,
    ]);
    expect(rows).toEqual([{ last_used_at: null }]);
  });
});

describe('credentials', () => {
  it.each([
    ['no Authorization header', {}],
    ['an unknown key', { authorization: 'Bearer hl_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a key without the hl_ prefix', { authorization: 'Bearer sk_live_123' }],
    ['Basic authentication', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['two tokens', { authorization: 'Bearer hl_a hl_b' }],
  ])('%s is a 401 that names the Bearer scheme', async (_label, headers) => {
    const response = await later('GET', '/v1/apps', { headers });
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="hookline"/);
  });

  it('accepts the scheme in any case', async () => {
    expect((await later('GET', '/v1/apps', { headers: { authorization: `bearer ${ctx.adminKey}` } })).status).toBe(200);
  });
});

describe('keys never reach the log or a later response', () => {
  it('an internal error is logged with an id, without the Authorization header or the body', async () => {
    const appId = await createApp(ctx.db.pool, 'broken');
    // A real database failure during a request: the table the route reads is gone for a moment.
    await ctx.db.pool.query('ALTER TABLE hookline.apps RENAME TO apps_away');
    let response: CallResult;
    try {
      response = await later('PATCH', `/v1/apps/${appId}`, {
        key: ctx.adminKey,
        body: { name: `secret name ${ctx.adminKey}` },
      });
    } finally {
      await ctx.db.pool.query('ALTER TABLE hookline.apps_away RENAME TO apps');
    }
    expectError(response, 500, 'internal_error');
    const errorId = /error id ([0-9a-f-]{36})/.exec(response.body.error.message)?.[1];
    expect(errorId).toBeDefined();
    const logLine = output
      .join('')
      .split('\n')
      .find((line) => line.includes(errorId!));
    expect(logLine, 'the 500 is logged with its error id').toBeDefined();
    expect(JSON.parse(logLine!)).toMatchObject({ level: 'error', method: 'PATCH', path: `/api/v1/apps/${appId}` });
  });

  it('no key created or used in this file appears in anything written to stdout or stderr', () => {
    const written = output.join('');
    expect(written.length).toBeGreaterThan(0);
    expect(createdKeys.length).toBeGreaterThan(5);
    for (const key of createdKeys) {
      expect(written.includes(key), `key ${key.slice(0, 11)}… in the output`).toBe(false);
      expect(written.includes(key.slice(11)), `the secret part of ${key.slice(0, 11)}… in the output`).toBe(false);
    }
  });

  it('no response after creation shows a key', () => {
    expect(laterResponses.length).toBeGreaterThan(40);
    for (const response of laterResponses) {
      for (const key of createdKeys)
        expect(response.text.includes(key.slice(3)), response.text.slice(0, 200)).toBe(false);
    }
  });
});
