// lib/http/error-status.ts walked: every code the domain can throw has a status, every code in the table
// is thrown somewhere, and one code of each status comes out of a real route with that status and code.
// The statuses are written out here rather than read from the table: they are the public API, and a
// table edit that changes one must fail a test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DOMAIN_ERROR_CODES } from '../../lib/domain/errors';
import { ERROR_STATUS, type ErrorCode } from '../../lib/http/error-status';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { ensureAdminUser } from '../../lib/domain/auth/ensure-admin-user';
import { appLimitedKey, call, setUpApiTest, type ApiTestContext, type CallResult } from './support/api';
import { expectError } from './support/expect-error';
import { portalCall, portalToken } from './support/portal';
import { createAppWorld, type AppWorld } from './support/world';
import { createApp } from '../support/fixtures';

let ctx: ApiTestContext;
let world: AppWorld;

beforeAll(async () => {
  ctx = await setUpApiTest();
  world = await createAppWorld(ctx.db.pool, 'error-status');
  await ensureAdminUser({ email: 'admin@hookline.test', password: 'correct horse battery staple' });
});

/** The codes lib/ constructs an error with, read from its source. */
function codesThrownInLib(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'generated') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/new (?:DomainError|HttpError)\(\s*'([a-z_]+)'/g)) codes.add(match[1]!);
      }
    }
  };
  walk(join(import.meta.dirname, '..', '..', 'lib'));
  return codes;
}

describe('the table', () => {
  it.each(DOMAIN_ERROR_CODES)('gives the domain code %s a 4xx status', (code) => {
    expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    expect(ERROR_STATUS[code]).toBeLessThan(500);
  });

  it('holds exactly the codes lib/ throws, and internal_error', () => {
    const thrown = codesThrownInLib();
    expect([...thrown].sort()).toEqual(
      Object.keys(ERROR_STATUS)
        .filter((code) => code !== 'internal_error')
        .sort(),
    );
    expect(ERROR_STATUS.internal_error).toBe(500);
  });
});

describe('one code of each status, through a real route', () => {
  const json = { 'content-type': 'application/json' };
  // One case per status the table uses (500 is api-keys.test.ts's, which makes the database fail).
  const cases: [number, ErrorCode, () => Promise<CallResult>][] = [
    [
      400,
      'invalid_cursor',
      () => call('GET', `/v1/apps/${world.appId}/deliveries`, { key: ctx.adminKey, query: { cursor: 'forged' } }),
    ],
    [
      401,
      'invalid_credentials',
      () => call('POST', '/auth/sign-in', { body: { email: 'admin@hookline.test', password: 'wrong' } }),
    ],
    [
      403,
      'portal_read_only',
      async () =>
        portalCall('POST', `/v1/apps/${world.appId}/endpoints/${world.endpointId}/disable`, {
          token: await portalToken(world.appId, { readOnly: true }),
        }),
    ],
    [404, 'not_found', () => call('GET', `/v1/apps/${world.appId}/jobs/job_nope`, { key: ctx.adminKey })],
    [409, 'operations_app', () => call('DELETE', '/v1/apps/app_hookline_ops', { key: ctx.adminKey })],
    [
      413,
      'payload_too_large',
      () =>
        call('POST', `/v1/apps/${world.appId}/event-types`, {
          key: ctx.adminKey,
          rawBody: '{}',
          headers: { ...json, 'content-length': String(1_048_577) },
        }),
    ],
    [
      415,
      'unsupported_media_type',
      () =>
        call('POST', `/v1/apps/${world.appId}/event-types`, {
          key: ctx.adminKey,
          rawBody: '{"name":"x.y"}',
          headers: { 'content-type': 'text/plain' },
        }),
    ],
    [
      422,
      'validation_failed',
      () => call('POST', `/v1/apps/${world.appId}/event-types`, { key: ctx.adminKey, body: { name: 'not a name' } }),
    ],
    [429, 'rate_limited', () => exceedRateLimit()],
  ];

  it('cover every status of the table', () => {
    const statuses = new Set<number>(Object.values(ERROR_STATUS));
    statuses.delete(500);
    expect(cases.map(([status]) => status).sort()).toEqual([...statuses].sort());
  });

  it.each(cases)('%i %s', async (status, code, request) => {
    expect(ERROR_STATUS[code]).toBe(status);
    expectError(await request(), status, code);
  });
});

describe('the headers a refusal carries', () => {
  it('a 401 to a request without credentials names the scheme (WWW-Authenticate)', async () => {
    const response = await call('GET', '/v1/apps');
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="hookline"');
  });

  it('a 401 to a key that is not one says the token is invalid (RFC 6750)', async () => {
    const response = await call('GET', '/v1/apps', { key: 'hl_unknown' });
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="hookline", error="invalid_token"');
  });

  it('a 401 of the dashboard session or the portal challenges nothing: no key would be accepted there', async () => {
    for (const response of [
      await call('GET', '/auth/session'),
      await portalCall('GET', `/v1/apps/${world.appId}/endpoints`),
    ]) {
      expectError(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('a 429 says when to come back (Retry-After, whole seconds)', async () => {
    const response = await exceedRateLimit();
    expectError(response, 429, 'rate_limited');
    expect(response.headers.get('retry-after')).toBe('1');
  });

  it('a domain refusal carries no header of its own', async () => {
    const response = await call('GET', `/v1/apps/${world.appId}/jobs/job_nope`, { key: ctx.adminKey });
    expectError(response, 404, 'not_found');
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('a key limited to another app gets the 404 of an unknown app, not a 403', async () => {
    const elsewhere = await appLimitedKey(await createApp(ctx.db.pool, 'elsewhere'));
    const response = await call('GET', `/v1/apps/${world.appId}`, { key: elsewhere });
    expectError(response, 404, 'not_found');
    expect(response.body.error.message).toBe(`App "${world.appId}" does not exist`);
  });
});

/** The second request of a second with HOOKLINE_API_RATE_LIMIT=1, on a standing clock. */
async function exceedRateLimit(): Promise<CallResult> {
  process.env.HOOKLINE_API_RATE_LIMIT = '1';
  resetApiSettings();
  await resetRateLimits();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    await call('GET', '/v1/apps', { key: ctx.adminKey });
    return await call('GET', '/v1/apps', { key: ctx.adminKey });
  } finally {
    vi.useRealTimers();
    process.env.HOOKLINE_API_RATE_LIMIT = '0';
    resetApiSettings();
  }
}
