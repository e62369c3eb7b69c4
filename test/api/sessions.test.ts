// The dashboard's way in: /api/auth/sign-in sets a session cookie that /api/v1 accepts like a
// deployment-wide key, with a same-origin check on every request that changes something (CSRF).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureAdminUser } from '../../lib/domain/auth/ensure-admin-user';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { POST as signInRoute } from '../../app/api/auth/sign-in/route';
import { countRows } from '../support/fixtures';
import { call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
const email = 'admin@hookline.test';
const password = 'correct horse battery staple';

beforeAll(async () => {
  ctx = await setUpApiTest();
  await ensureAdminUser({ email, password });
});

async function signIn(headers: Record<string, string> = {}) {
  await resetRateLimits();
  const response = await call('POST', '/auth/sign-in', { body: { email, password }, headers });
  expect(response.status, response.text).toBe(204);
  const setCookie = response.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/^hookline_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  return setCookie.split(';')[0]!;
}

describe('POST /api/auth/sign-in', () => {
  it('sets an HttpOnly session cookie that /api/auth/session and /api/v1 accept', async () => {
    const cookie = await signIn();
    const session = await call('GET', '/auth/session', { cookie });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email, role: 'owner', appIds: [], totpEnabled: false },
      permissions: [
        'read',
        'apps.manage',
        'integrations.write',
        'deliveries.replay',
        'operations.manage',
        'members.manage',
      ],
    });
    expect((await call('GET', '/v1/apps', { cookie })).status).toBe(200);
    // An admin is deployment-wide: API keys can be managed.
    expect((await call('GET', '/v1/api-keys', { cookie })).status).toBe(200);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    await resetRateLimits();
    const response = await call('POST', '/auth/sign-in', { body: { email: '  ADMIN@hookline.test ', password } });
    expect(response.status).toBe(204);
  });

  it.each([
    ['a wrong password', { email, password: 'wrong' }],
    ['an unknown email', { email: 'nobody@hookline.test', password }],
  ])('answers 401 to %s, with the same message either way', async (_label, body) => {
    await resetRateLimits();
    const response = await call('POST', '/auth/sign-in', { body });
    expectError(response, 401, 'invalid_credentials');
    expect(response.body.error.message).toBe('The email or the password is wrong');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in posted from another site (403) and a malformed body (422)', async () => {
    await resetRateLimits();
    expectError(
      await call('POST', '/auth/sign-in', { body: { email, password }, headers: { origin: 'https://evil.example' } }),
      403,
      'csrf_rejected',
    );
    expectError(await call('POST', '/auth/sign-in', { body: { email } }), 422, 'validation_failed', 'password');
  });

  it('allows 3 attempts a second per email, then answers 429 with Retry-After', async () => {
    await resetRateLimits();
    // At once, on a standing clock: each verification takes ~100 ms of scrypt, which would otherwise
    // refill the bucket between tries on a slow machine. Only Date is faked; database timers run.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const attempts = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/auth/sign-in', { body: { email, password: 'guess' } })),
    ).finally(() => vi.useRealTimers());
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([401, 401, 401, 429, 429, 429]);
    const limited = attempts.find((attempt) => attempt.status === 429)!;
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('a session cookie on /api/v1', () => {
  it('reads freely, but a change needs the same origin (Origin or Sec-Fetch-Site)', async () => {
    const cookie = await signIn();
    const before = await countRows(ctx.db.pool, 'apps');
    expectError(await call('POST', '/v1/apps', { cookie, body: { name: 'no origin' } }), 403, 'csrf_rejected');
    expectError(
      await call('POST', '/v1/apps', {
        cookie,
        body: { name: 'cross site' },
        headers: { origin: 'https://evil.example' },
      }),
      403,
      'csrf_rejected',
    );
    expectError(
      await call('POST', '/v1/apps', {
        cookie,
        body: { name: 'cross site' },
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
      403,
      'csrf_rejected',
    );
    expect(await countRows(ctx.db.pool, 'apps')).toBe(before);

    expect(
      (await call('POST', '/v1/apps', { cookie, body: { name: 'same origin' }, headers: { origin: ORIGIN } })).status,
    ).toBe(201);
    expect(
      (
        await call('POST', '/v1/apps', {
          cookie,
          body: { name: 'fetch metadata' },
          headers: { 'sec-fetch-site': 'same-origin' },
        })
      ).status,
    ).toBe(201);
    // Behind a proxy, the forwarded host is ours too.
    expect(
      (
        await call('POST', '/v1/apps', {
          cookie,
          body: { name: 'proxied' },
          headers: {
            origin: 'https://hooks.example.com',
            'x-forwarded-host': 'hooks.example.com',
            'x-forwarded-proto': 'https',
          },
        })
      ).status,
    ).toBe(201);
  });

  it('a bearer key wins over a cookie, and needs no origin', async () => {
    const response = await call('POST', '/v1/apps', {
      key: ctx.adminKey,
      cookie: 'hookline_session=whatever',
      body: { name: 'by key' },
    });
    expect(response.status).toBe(201);
  });

  it('an unknown or expired session is a 401', async () => {
    expectError(await call('GET', '/v1/apps', { cookie: 'hookline_session=not-a-session' }), 401, 'unauthorized');
    const cookie = await signIn();
    await ctx.db.pool.query(`UPDATE hookline.admin_sessions SET expires_at = now() - interval '1 second'`);
    expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
    expectError(await call('GET', '/auth/session', { cookie }), 401, 'unauthorized');
  });
});

describe('POST /api/auth/sign-out', () => {
  it('ends the session at once and clears the cookie; it needs the same origin', async () => {
    const cookie = await signIn();
    expectError(await call('POST', '/auth/sign-out', { cookie }), 403, 'csrf_rejected');
    expect((await call('GET', '/v1/apps', { cookie })).status).toBe(200);

    const response = await call('POST', '/auth/sign-out', { cookie, headers: { origin: ORIGIN } });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toContain('Max-Age=0');
    expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
  });

  it('without a session it only clears the cookie', async () => {
    const response = await call('POST', '/auth/sign-out');
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toContain('Max-Age=0');
  });
});

// The session cookie must not travel over plain http once the dashboard is served over https. Behind
// a TLS-terminating proxy the request reaching Hookline is http; only a proxy Hookline is told to
// trust (HOOKLINE_TRUST_PROXY) may say the browser used https, since any client can send the header.
describe('the Secure flag of the session cookie', () => {
  const signInCookie = async (url: string, headers: Record<string, string> = {}) => {
    await resetRateLimits();
    const response = await signInRoute(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email, password }),
      }),
    );
    expect(response.status).toBe(204);
    return response.headers.get('set-cookie') ?? '';
  };
  const withTrustProxy = async <T>(value: string, run: () => Promise<T>) => {
    process.env.HOOKLINE_TRUST_PROXY = value;
    resetApiSettings();
    try {
      return await run();
    } finally {
      delete process.env.HOOKLINE_TRUST_PROXY;
      resetApiSettings();
    }
  };

  it('is set when the request itself is https', async () => {
    expect(await signInCookie('https://hooks.example.com/api/auth/sign-in')).toMatch(/; Secure$/);
  });

  it('is not set over http, nor for an X-Forwarded-Proto nobody said to trust', async () => {
    expect(await signInCookie(`${ORIGIN}/api/auth/sign-in`)).not.toContain('Secure');
    expect(await signInCookie(`${ORIGIN}/api/auth/sign-in`, { 'x-forwarded-proto': 'https' })).not.toContain('Secure');
  });

  it('follows X-Forwarded-Proto with HOOKLINE_TRUST_PROXY=true', async () => {
    await withTrustProxy('true', async () => {
      expect(await signInCookie(`${ORIGIN}/api/auth/sign-in`, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure$/);
      expect(await signInCookie(`${ORIGIN}/api/auth/sign-in`, { 'x-forwarded-proto': 'http' })).not.toContain('Secure');
    });
  });
});
