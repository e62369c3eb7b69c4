// Single sign-on against a real OpenID provider (oidc-provider, in this process on 127.0.0.1:<random>):
// the whole authorization code flow with PKCE, each redirect followed by hand. Hookline's routes run
// in-process (./support/api.ts) on a real database; the provider is reached over real HTTP for
// discovery, the JWKS, the token exchange and UserInfo.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminUser } from '../../lib/domain/auth/ensure-admin-user';
import { createInvitation } from '../../lib/domain/members/create-invitation';
import { loadConfig } from '../../lib/runtime/env';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { readSsoStateCookie, SSO_ATTEMPT_TTL_SECONDS } from '../../lib/http/auth/sso-state-cookie';
import { countRows } from '../support/fixtures';
import { CookieJar, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { call, ORIGIN, setUpApiTest, type ApiTestContext, type CallResult } from './support/api';
import { createMember } from './support/members';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
let provider: TestOidcProvider;
const CALLBACK = `${ORIGIN}/api/auth/sso/callback`;
const SSO_ENV = ['HOOKLINE_OIDC_ISSUER', 'HOOKLINE_OIDC_CLIENT_ID', 'HOOKLINE_OIDC_CLIENT_SECRET'];

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [CALLBACK] });
  ctx = await setUpApiTest({
    HOOKLINE_OIDC_ISSUER: provider.issuer,
    HOOKLINE_OIDC_CLIENT_ID: provider.clientId,
    HOOKLINE_OIDC_CLIENT_SECRET: provider.clientSecret,
  });
});

afterEach(() => setEnv({ HOOKLINE_OIDC_DEFAULT_ROLE: undefined, HOOKLINE_PASSWORD_SIGN_IN: undefined }));

afterAll(async () => {
  setEnv(Object.fromEntries(SSO_ENV.map((name) => [name, undefined])));
  await provider?.close();
});

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetApiSettings();
}

function account(sub: string, email: string, emailVerified = true) {
  provider.accounts.set(sub, { email, emailVerified });
  provider.signInAs = sub;
}

const cookieOf = (response: CallResult, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0];

/** GET /api/auth/sso/start, then the provider's redirects until it sends the browser to our callback. */
async function startAtProvider(next = '/apps'): Promise<{ ssoCookie: string; callbackUrl: URL }> {
  const start = await call('GET', `/auth/sso/start?next=${encodeURIComponent(next)}`);
  expect(start.status, start.text).toBe(303);
  const ssoCookie = cookieOf(start, 'hookline_sso')!;
  expect(start.headers.getSetCookie()[0]).toMatch(
    /^hookline_sso=[\w-]+\.[\w-]+; Path=\/api\/auth\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/,
  );
  const authorize = new URL(start.headers.get('location')!);
  expect(authorize.origin).toBe(provider.issuer);
  expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: CALLBACK,
    code_challenge_method: 'S256',
    scope: 'openid email',
  });
  const jar = new CookieJar();
  let location = authorize.toString();
  for (let hop = 0; hop < 10 && location.startsWith(provider.issuer); hop++) {
    const response = await fetch(location, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    expect([302, 303], await response.clone().text()).toContain(response.status);
    location = new URL(response.headers.get('location')!, location).toString();
  }
  expect(location.startsWith(`${CALLBACK}?`), location).toBe(true);
  return { ssoCookie, callbackUrl: new URL(location) };
}

function callback(callbackUrl: URL, ssoCookie: string | undefined) {
  return call('GET', `/auth/sso/callback${callbackUrl.search}`, ssoCookie ? { cookie: ssoCookie } : {});
}

async function ssoSignIn(next = '/apps') {
  const { ssoCookie, callbackUrl } = await startAtProvider(next);
  return callback(callbackUrl, ssoCookie);
}

/** Password sign-in as `email` (whatever the password, the old placeholder included) is refused exactly
 * as a wrong password of a member with one and as an unknown email are. */
async function expectSameRefusal(email: string) {
  const withPassword = 'with-password@example.test';
  if ((await countRows(ctx.db.pool, 'admin_users', 'email = $1', [withPassword])) === 0) {
    await ensureAdminUser({ email: withPassword, password: 'the right password, long' });
  }
  const answers = [];
  for (const [who, password] of [
    [email, 'any password at all'],
    [email, 'sso:no-password'],
    [email, ''],
    [withPassword, 'a wrong password'],
    ['nobody@example.test', 'any password at all'],
  ] as const) {
    const response = await call('POST', '/auth/sign-in', { body: { email: who, password } });
    if (password === '') {
      // An empty password is refused by validation before any member is looked up.
      expect(response.status).toBe(422);
      continue;
    }
    expectError(response, 401, 'invalid_credentials');
    expect(response.headers.get('set-cookie')).toBeNull();
    answers.push(response.body);
  }
  expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
}

function expectRefused(response: CallResult, reason: string) {
  expect(response.status, response.text).toBe(303);
  expect(response.headers.get('location')).toBe(`/sign-in?sso_error=${reason}`);
  expect(cookieOf(response, 'hookline_session')).toBeUndefined();
  expect(cookieOf(response, 'hookline_sso')).toBe('hookline_sso=');
}

describe('SSO sign-in', () => {
  it('signs in a member by its verified email, with the session a password sign-in opens', async () => {
    // Any case at the provider; a second factor is for password sign-in only.
    const member = await createMember(ctx.db.pool, { email: 'dev@example.test', role: 'developer' });
    await ctx.db.pool.query(
      `UPDATE hookline.admin_users SET totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = now() WHERE id = $1`,
      [member.id],
    );
    account('dev-sub', 'Dev@Example.test');
    const sessionsBefore = await countRows(ctx.db.pool, 'admin_sessions', 'user_id = $1', [member.id]);

    const response = await ssoSignIn('/apps?tab=1');
    expect(response.status, response.text).toBe(303);
    expect(response.headers.get('location')).toBe('/apps?tab=1');
    const session = cookieOf(response, 'hookline_session')!;
    expect(response.headers.getSetCookie().find((line) => line.startsWith('hookline_session='))).toMatch(
      /^hookline_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
    );
    expect(cookieOf(response, 'hookline_sso')).toBe('hookline_sso=');
    expect(await countRows(ctx.db.pool, 'admin_sessions', 'user_id = $1', [member.id])).toBe(sessionsBefore + 1);

    const me = await call('GET', '/auth/session', { cookie: session });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: member.id, email: 'dev@example.test', role: 'developer' });
    expect((await call('GET', '/v1/apps', { cookie: session })).status).toBe(200);
  });

  it('creates an unknown verified email as a member with HOOKLINE_OIDC_DEFAULT_ROLE, once', async () => {
    setEnv({ HOOKLINE_OIDC_DEFAULT_ROLE: 'viewer' });
    account('new-sub', 'newcomer@example.test');
    const response = await ssoSignIn();
    expect(response.status, response.text).toBe(303);
    expect(response.headers.get('location')).toBe('/apps');
    const { rows } = await ctx.db.pool.query(
      `SELECT id, role, app_ids, password_hash FROM hookline.admin_users WHERE email = 'newcomer@example.test'`,
    );
    // No password at all, not a placeholder hash: the member signs in by SSO.
    expect(rows).toEqual([{ id: expect.stringMatching(/^usr_/), role: 'viewer', app_ids: [], password_hash: null }]);
    // Password sign-in is refused with the answer a wrong password or an unknown email gets, so it
    // tells nobody that the email is a member, or one without a password.
    await expectSameRefusal('newcomer@example.test');
    const audit = await ctx.db.pool.query(
      `SELECT action, actor_type, changes FROM hookline.audit_events WHERE resource_id = $1`,
      [rows[0].id],
    );
    expect(audit.rows).toEqual([
      {
        action: 'member.created',
        actor_type: 'system',
        changes: { before: null, after: { email: 'newcomer@example.test', role: 'viewer', appIds: [], via: 'sso' } },
      },
    ]);

    // The second sign-in finds the member made by the first.
    expect((await ssoSignIn()).status).toBe(303);
    expect(await countRows(ctx.db.pool, 'admin_users', `email = 'newcomer@example.test'`)).toBe(1);
    expect(await countRows(ctx.db.pool, 'audit_events', 'resource_id = $1', [rows[0].id])).toBe(1);
  });

  it('refuses an unknown member when no default role is set, and creates nothing', async () => {
    account('stranger-sub', 'stranger@example.test');
    const members = await countRows(ctx.db.pool, 'admin_users');
    expectRefused(await ssoSignIn(), 'unknown_member');
    expect(await countRows(ctx.db.pool, 'admin_users')).toBe(members);
  });

  it('makes the member of an open invitation to that email, with the invitation’s role', async () => {
    const {
      invitation: { id },
    } = await createInvitation({ email: 'invited@example.test', role: 'admin', invitedBy: null });
    account('invited-sub', 'invited@example.test');
    const response = await ssoSignIn();
    expect(response.status, response.text).toBe(303);
    expect(response.headers.get('location')).toBe('/apps');
    const { rows } = await ctx.db.pool.query(
      `SELECT role, password_hash FROM hookline.admin_users WHERE email = 'invited@example.test'`,
    );
    expect(rows).toEqual([{ role: 'admin', password_hash: null }]);
    await expectSameRefusal('invited@example.test');
    expect(await countRows(ctx.db.pool, 'invitations', 'id = $1 AND accepted_at IS NOT NULL', [id])).toBe(1);
  });

  it('refuses an email the provider has not verified, even a member’s, and even with JIT on', async () => {
    setEnv({ HOOKLINE_OIDC_DEFAULT_ROLE: 'owner' });
    const member = await createMember(ctx.db.pool, { email: 'owner2@example.test', role: 'owner' });
    const sessions = await countRows(ctx.db.pool, 'admin_sessions', 'user_id = $1', [member.id]);
    account('unverified-sub', 'owner2@example.test', false);
    expectRefused(await ssoSignIn(), 'email_unverified');
    account('unverified-new-sub', 'unverified-new@example.test', false);
    expectRefused(await ssoSignIn(), 'email_unverified');
    expect(await countRows(ctx.db.pool, 'admin_sessions', 'user_id = $1', [member.id])).toBe(sessions);
    expect(await countRows(ctx.db.pool, 'admin_users', `email = 'unverified-new@example.test'`)).toBe(0);
  });

  it('refuses a callback whose state is not the one of this browser’s attempt', async () => {
    await createMember(ctx.db.pool, { email: 'victim@example.test', role: 'owner' });
    account('victim-sub', 'victim@example.test');
    const sessions = await countRows(ctx.db.pool, 'admin_sessions');
    // An attacker's callback URL (their code and state) in a victim browser that started its own attempt.
    const attacker = await startAtProvider();
    const victim = await startAtProvider();
    expectRefused(await callback(attacker.callbackUrl, victim.ssoCookie), 'state_invalid');
    // No cookie at all (the attempt was started in another browser, or the cookie expired).
    expectRefused(await callback(victim.callbackUrl, undefined), 'state_invalid');
    // A cookie whose content was changed (its signature no longer matches).
    const [value, signature] = victim.ssoCookie.slice('hookline_sso='.length).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(value!, 'base64url').toString()), next: '/members' }),
    ).toString('base64url');
    expectRefused(await callback(victim.callbackUrl, `hookline_sso=${forged}.${signature}`), 'state_invalid');
    // The state is right but the provider sends an error instead of a code.
    const denied = new URL(CALLBACK);
    denied.searchParams.set('state', victim.callbackUrl.searchParams.get('state')!);
    denied.searchParams.set('error', 'access_denied');
    expectRefused(await callback(denied, victim.ssoCookie), 'provider_error');
    expect(await countRows(ctx.db.pool, 'admin_sessions')).toBe(sessions);

    // The victim's own callback still works, once: the provider refuses a code redeemed twice.
    expect(cookieOf(await callback(victim.callbackUrl, victim.ssoCookie), 'hookline_session')).toBeDefined();
    expectRefused(await callback(victim.callbackUrl, victim.ssoCookie), 'provider_error');
  });

  it('lets the state cookie expire after ten minutes', async () => {
    const { ssoCookie } = await startAtProvider();
    const header = ssoCookie;
    const now = Date.now();
    expect(readSsoStateCookie(header, { clientSecret: provider.clientSecret, now })).not.toBeNull();
    expect(
      readSsoStateCookie(header, {
        clientSecret: provider.clientSecret,
        now: now + SSO_ATTEMPT_TTL_SECONDS * 1000 + 1000,
      }),
    ).toBeNull();
    // Signed with another deployment's client secret: not ours.
    expect(readSsoStateCookie(header, { clientSecret: 'another secret', now })).toBeNull();
  });

  it('never redirects off the site after sign-in', async () => {
    await createMember(ctx.db.pool, { email: 'next@example.test', role: 'viewer' });
    account('next-sub', 'next@example.test');
    // A browser reads a backslash as a slash and drops tabs and newlines: each of these is
    // "//evil.example", a protocol-relative redirect off the site.
    for (const next of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
    ]) {
      const response = await ssoSignIn(next);
      expect(response.headers.get('location')).toBe('/overview');
    }
  });

  it('refuses password sign-in and invitation passwords when HOOKLINE_PASSWORD_SIGN_IN=false; SSO still works', async () => {
    const email = 'owner@example.test';
    const password = 'correct horse battery staple';
    await ensureAdminUser({ email, password });
    expect((await call('POST', '/auth/sign-in', { body: { email, password } })).status).toBe(204);

    setEnv({ HOOKLINE_PASSWORD_SIGN_IN: 'false' });
    const refused = await call('POST', '/auth/sign-in', { body: { email, password } });
    expectError(refused, 403, 'password_sign_in_disabled');
    expect(refused.body.error.message).toMatch(/sign in with SSO/);
    expect(refused.headers.get('set-cookie')).toBeNull();

    account('owner-sub', email);
    expect(cookieOf(await ssoSignIn(), 'hookline_session')).toBeDefined();

    // An invitation link cannot set a password either; the invited email joins by SSO instead.
    const { token } = await createInvitation({ email: 'joiner@example.test', role: 'viewer', invitedBy: null });
    const accept = await call('POST', '/auth/invitations/accept', {
      body: { token, password: 'a long enough password' },
    });
    expectError(accept, 403, 'password_sign_in_disabled');
    expect(await countRows(ctx.db.pool, 'admin_users', `email = 'joiner@example.test'`)).toBe(0);
    account('joiner-sub', 'joiner@example.test');
    expect(cookieOf(await ssoSignIn(), 'hookline_session')).toBeDefined();
    expect(
      await countRows(
        ctx.db.pool,
        'admin_users',
        `email = 'joiner@example.test' AND role = 'viewer' AND password_hash IS NULL`,
      ),
    ).toBe(1);
  });

  it('sends the browser back to the sign-in page when SSO is not configured', async () => {
    const configured = Object.fromEntries(SSO_ENV.map((name) => [name, process.env[name]]));
    setEnv(Object.fromEntries(SSO_ENV.map((name) => [name, undefined])));
    try {
      expectRefused(await call('GET', '/auth/sso/start'), 'not_configured');
      expectRefused(await call('GET', '/auth/sso/callback?code=x&state=y'), 'not_configured');
    } finally {
      setEnv(configured);
    }
  });
});

describe('the SSO settings', () => {
  it.each([
    [{ HOOKLINE_OIDC_ISSUER: 'https://id.example' }, /set together/],
    [{ HOOKLINE_PASSWORD_SIGN_IN: 'false' }, /HOOKLINE_PASSWORD_SIGN_IN=false needs single sign-on/],
    [
      {
        HOOKLINE_OIDC_ISSUER: 'https://id.example',
        HOOKLINE_OIDC_CLIENT_ID: 'a',
        HOOKLINE_OIDC_CLIENT_SECRET: 'b',
        HOOKLINE_OIDC_DEFAULT_ROLE: 'superuser',
      },
      /HOOKLINE_OIDC_DEFAULT_ROLE must be owner, admin, developer or viewer/,
    ],
  ])('refuses %j at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
