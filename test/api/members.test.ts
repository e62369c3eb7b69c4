// Members, invitations and sessions through the real routes on a real database: an invitation link is
// shown once, kept hashed, expires and works once; roles change (never leaving no owner); removing a
// member or signing out everywhere ends sessions at once; sessions end when idle or too old; TOTP.
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureAdminUser } from '../../lib/domain/auth/ensure-admin-user';
import { base32Decode, hotp, totpStep } from '../../lib/domain/auth/totp';
import { resetApiSettings } from '../../lib/runtime/api-settings';
import { resetRateLimits } from '../../lib/http/rate-limit';
import { call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';

let ctx: ApiTestContext;
const ownerEmail = 'owner@hookline.test';
const ownerPassword = 'correct horse battery staple';
let owner: string;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const same = { origin: ORIGIN };

async function signIn(email: string, password: string, code?: string) {
  await resetRateLimits();
  const response = await call('POST', '/auth/sign-in', { body: { email, password, ...(code ? { code } : {}) } });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  return { response, cookie: cookie ?? '' };
}

async function invite(email: string, role: string, appIds?: string[]) {
  const response = await call('POST', '/v1/invitations', {
    cookie: owner,
    headers: same,
    body: { email, role, ...(appIds ? { appIds } : {}) },
  });
  expect(response.status, response.text).toBe(201);
  return { ...response.body, token: new URL(response.body.url).hash.slice(1) } as {
    invitation: { id: string };
    url: string;
    token: string;
  };
}

async function accept(token: string, password = 'a long new password') {
  await resetRateLimits();
  return call('POST', '/auth/invitations/accept', { body: { token, password }, headers: same });
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  await ensureAdminUser({ email: ownerEmail, password: ownerPassword });
  owner = (await signIn(ownerEmail, ownerPassword)).cookie;
});

describe('invitations', () => {
  it('shows the link once, keeps only its sha256, and the link makes a member who is signed in', async () => {
    const { invitation, url, token } = await invite('new.viewer@hookline.test', 'viewer');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/invite#[A-Za-z0-9_-]{43}$/);
    const { rows } = await ctx.db.pool.query(
      'SELECT token_hash, t::text AS row FROM hookline.invitations t WHERE id = $1',
      [invitation.id],
    );
    expect(rows[0].token_hash).toBe(sha256(token));
    expect(rows[0].row).not.toContain(token);
    const listed = await call('GET', '/v1/invitations', { cookie: owner });
    expect(listed.text).not.toContain(token);
    expect(listed.body.data.map((row: { id: string }) => row.id)).toContain(invitation.id);

    const accepted = await accept(token);
    expect(accepted.status, accepted.text).toBe(204);
    const cookie = accepted.headers.get('set-cookie')!.split(';')[0]!;
    const session = await call('GET', '/auth/session', { cookie });
    expect(session.body.user).toMatchObject({ email: 'new.viewer@hookline.test', role: 'viewer' });
    expect(session.body.permissions).toEqual(['read']);
    // And the password chosen works for signing in.
    expect((await signIn('new.viewer@hookline.test', 'a long new password')).response.status).toBe(204);
    // Accepted: off the list.
    const after = await call('GET', '/v1/invitations', { cookie: owner });
    expect(after.body.data.map((row: { id: string }) => row.id)).not.toContain(invitation.id);
  });

  it('works once: a second use, even at the same time, makes no second member', async () => {
    const { token } = await invite('twice@hookline.test', 'developer');
    const results = await Promise.all([accept(token), accept(token)]);
    expect(results.map((result) => result.status).sort()).toEqual([204, 404]);
    expectError(
      results.find((result) => result.status === 404)!,
      404,
      'invitation_invalid',
    );
    const { rows } = await ctx.db.pool.query(
      `SELECT count(*)::int AS n FROM hookline.admin_users WHERE email = 'twice@hookline.test'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('expires, and a revoked link stops working', async () => {
    const expiring = await invite('late@hookline.test', 'viewer');
    await ctx.db.pool.query(`UPDATE hookline.invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.invitation.id,
    ]);
    expectError(await accept(expiring.token), 404, 'invitation_invalid');

    const revoked = await invite('revoked@hookline.test', 'viewer');
    const revoke = await call('DELETE', `/v1/invitations/${revoked.invitation.id}`, { cookie: owner, headers: same });
    expect(revoke.body.state).toBe('revoked');
    expectError(await accept(revoked.token), 404, 'invitation_invalid');
    expectError(await accept('made-up-token'), 404, 'invitation_invalid');
    const { rows } = await ctx.db.pool.query(
      `SELECT count(*)::int AS n FROM hookline.admin_users WHERE email IN ('late@hookline.test', 'revoked@hookline.test')`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses a member twice, a short password, and an app that does not exist', async () => {
    expectError(
      await call('POST', '/v1/invitations', {
        cookie: owner,
        headers: same,
        body: { email: ownerEmail, role: 'admin' },
      }),
      409,
      'conflict',
    );
    const { token } = await invite('short@hookline.test', 'viewer');
    expectError(await accept(token, 'short'), 422, 'validation_failed', 'password');
    expectError(
      await call('POST', '/v1/invitations', {
        cookie: owner,
        headers: same,
        body: { email: 'x@hookline.test', role: 'viewer', appIds: ['app_nope'] },
      }),
      422,
      'validation_failed',
      'appIds.0',
    );
  });
});

describe('passwords', () => {
  it('a hash from before argon2id signs in, and is replaced with argon2id then', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('legacy password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const legacy = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await ctx.db.pool.query(
      `INSERT INTO hookline.admin_users (email, password_hash, role) VALUES ('legacy@hookline.test', $1, 'viewer')`,
      [legacy],
    );
    expect((await signIn('legacy@hookline.test', 'legacy password')).response.status).toBe(204);
    const { rows } = await ctx.db.pool.query(
      `SELECT password_hash FROM hookline.admin_users WHERE email = 'legacy@hookline.test'`,
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
    expect((await signIn('legacy@hookline.test', 'legacy password')).response.status).toBe(204);
    expectError((await signIn('legacy@hookline.test', 'wrong')).response, 401, 'invalid_credentials');
  });

  it('new members get argon2id', async () => {
    const { rows } = await ctx.db.pool.query(`SELECT password_hash FROM hookline.admin_users WHERE email = $1`, [
      ownerEmail,
    ]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('members', () => {
  it('changes a role, which takes effect on the next request', async () => {
    const { token } = await invite('promote@hookline.test', 'viewer');
    const cookie = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    expectError(await call('POST', '/v1/apps', { cookie, headers: same, body: { name: 'x' } }), 403, 'forbidden');
    const members = await call('GET', '/v1/members', { cookie: owner });
    const member = members.body.data.find((row: { email: string }) => row.email === 'promote@hookline.test');
    const changed = await call('PATCH', `/v1/members/${member.id}`, {
      cookie: owner,
      headers: same,
      body: { role: 'admin' },
    });
    expect(changed.body).toMatchObject({ role: 'admin', appIds: [] });
    expect((await call('POST', '/v1/apps', { cookie, headers: same, body: { name: 'by admin' } })).status).toBe(201);
  });

  it('never holds an owner to some apps', async () => {
    const appId = (await call('POST', '/v1/apps', { cookie: owner, headers: same, body: { name: 'scoped' } })).body.id;
    expectError(
      await call('POST', '/v1/invitations', {
        cookie: owner,
        headers: same,
        body: { email: 'scoped-owner@hookline.test', role: 'owner', appIds: [appId] },
      }),
      422,
      'validation_failed',
      'appIds',
    );
    const { token } = await invite('scoped-dev@hookline.test', 'developer', [appId]);
    const cookie = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    const id = (await call('GET', '/auth/session', { cookie })).body.user.id;
    expectError(
      await call('PATCH', `/v1/members/${id}`, { cookie: owner, headers: same, body: { role: 'owner' } }),
      422,
      'validation_failed',
      'appIds',
    );
    const promoted = await call('PATCH', `/v1/members/${id}`, {
      cookie: owner,
      headers: same,
      body: { role: 'owner', appIds: [] },
    });
    expect(promoted.body).toMatchObject({ role: 'owner', appIds: [] });
    // Back to one owner, which the next test relies on.
    const demoted = await call('PATCH', `/v1/members/${id}`, {
      cookie: owner,
      headers: same,
      body: { role: 'viewer' },
    });
    expect(demoted.body).toMatchObject({ role: 'viewer' });
  });

  it('never leaves no owner', async () => {
    const members = await call('GET', '/v1/members', { cookie: owner });
    const me = members.body.data.find((row: { email: string }) => row.email === ownerEmail);
    expectError(
      await call('PATCH', `/v1/members/${me.id}`, { cookie: owner, headers: same, body: { role: 'admin' } }),
      409,
      'last_owner',
    );
    expectError(await call('DELETE', `/v1/members/${me.id}`, { cookie: owner, headers: same }), 409, 'last_owner');
    const { rows } = await ctx.db.pool.query(`SELECT role FROM hookline.admin_users WHERE id = $1`, [me.id]);
    expect(rows[0].role).toBe('owner');
  });

  it('removing a member ends its sessions at once; the API keys it made stay, with no creator', async () => {
    const { token } = await invite('leaver@hookline.test', 'admin');
    const cookie = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    const key = await call('POST', '/v1/api-keys', { cookie, headers: same, body: { name: 'made by leaver' } });
    const session = await call('GET', '/auth/session', { cookie });
    expect(key.body.apiKey.createdBy).toBe(session.body.user.id);
    const removed = await call('DELETE', `/v1/members/${session.body.user.id}`, { cookie: owner, headers: same });
    expect(removed.status, removed.text).toBe(200);
    expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
    const { rows } = await ctx.db.pool.query(`SELECT created_by, revoked_at FROM hookline.api_keys WHERE id = $1`, [
      key.body.apiKey.id,
    ]);
    expect(rows[0]).toEqual({ created_by: null, revoked_at: null });
  });
});

describe('sessions', () => {
  it('lists my sessions, revokes one, and signing out everywhere ends the rest', async () => {
    const { token } = await invite('traveller@hookline.test', 'developer');
    const first = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    const second = (await signIn('traveller@hookline.test', 'a long new password')).cookie;
    const third = (await signIn('traveller@hookline.test', 'a long new password')).cookie;
    const list = await call('GET', '/auth/sessions', { cookie: first });
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data.filter((row: { current: boolean }) => row.current)).toHaveLength(1);
    // The owner's sessions are not among them, and cannot be revoked from here.
    const ownerSessions = await call('GET', '/auth/sessions', { cookie: owner });
    const ownerSession = ownerSessions.body.data[0].id;
    expectError(
      await call('DELETE', `/auth/sessions/${ownerSession}`, { cookie: first, headers: same }),
      404,
      'not_found',
    );

    const current = list.body.data.find((row: { current: boolean }) => row.current).id;
    const other = list.body.data.find((row: { id: string }) => row.id !== current).id;
    expect((await call('DELETE', `/auth/sessions/${other}`, { cookie: first, headers: same })).body).toEqual({
      revoked: 1,
    });
    expect((await call('GET', '/auth/sessions', { cookie: first })).body.data).toHaveLength(2);

    const everywhere = await call('POST', '/auth/sign-out-everywhere', { cookie: second, headers: same });
    expect(everywhere.status).toBe(204);
    expect(everywhere.headers.get('set-cookie')).toMatch(/^hookline_session=; .*Max-Age=0/);
    for (const cookie of [first, second, third])
      expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
    // The owner is still signed in.
    expect((await call('GET', '/v1/apps', { cookie: owner })).status).toBe(200);
  });

  it('an owner ends every session of another member', async () => {
    const { token } = await invite('lost-laptop@hookline.test', 'viewer');
    const cookie = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    const id = (await call('GET', '/auth/session', { cookie })).body.user.id;
    expect((await call('GET', `/v1/members/${id}/sessions`, { cookie: owner })).body.data).toHaveLength(1);
    expect((await call('DELETE', `/v1/members/${id}/sessions`, { cookie: owner, headers: same })).body).toEqual({
      revoked: 1,
    });
    expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
  });

  it('ends when idle for HOOKLINE_SESSION_IDLE_TIMEOUT, and use keeps it alive', async () => {
    process.env.HOOKLINE_SESSION_IDLE_TIMEOUT = '10m';
    resetApiSettings();
    try {
      const { cookie } = await signIn(ownerEmail, ownerPassword);
      const hash = sha256(cookie.split('=')[1]!);
      // Used 9 minutes ago: alive, and this use moves last_seen_at to now.
      await ctx.db.pool.query(
        `UPDATE hookline.admin_sessions SET last_seen_at = now() - interval '9 minutes' WHERE token_hash = $1`,
        [hash],
      );
      expect((await call('GET', '/v1/apps', { cookie })).status).toBe(200);
      const { rows } = await ctx.db.pool.query(
        `SELECT now() - last_seen_at < interval '5 seconds' AS fresh FROM hookline.admin_sessions WHERE token_hash = $1`,
        [hash],
      );
      expect(rows[0].fresh).toBe(true);
      // Unused for 11 minutes: over.
      await ctx.db.pool.query(
        `UPDATE hookline.admin_sessions SET last_seen_at = now() - interval '11 minutes' WHERE token_hash = $1`,
        [hash],
      );
      expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
    } finally {
      delete process.env.HOOKLINE_SESSION_IDLE_TIMEOUT;
      resetApiSettings();
    }
  });

  it('ends at its absolute lifetime however busy (HOOKLINE_SESSION_TTL_HOURS)', async () => {
    process.env.HOOKLINE_SESSION_TTL_HOURS = '2';
    resetApiSettings();
    try {
      const { response, cookie } = await signIn(ownerEmail, ownerPassword);
      expect(response.headers.get('set-cookie')).toContain('Max-Age=7200');
      const hash = sha256(cookie.split('=')[1]!);
      const { rows } = await ctx.db.pool.query(
        `SELECT round(extract(epoch FROM expires_at - created_at)) AS seconds FROM hookline.admin_sessions WHERE token_hash = $1`,
        [hash],
      );
      expect(Number(rows[0].seconds)).toBe(7200);
      await ctx.db.pool.query(
        `UPDATE hookline.admin_sessions SET expires_at = now() - interval '1 second', last_seen_at = now() WHERE token_hash = $1`,
        [hash],
      );
      expectError(await call('GET', '/v1/apps', { cookie }), 401, 'unauthorized');
    } finally {
      delete process.env.HOOKLINE_SESSION_TTL_HOURS;
      resetApiSettings();
    }
  });
});

describe('a second factor (TOTP)', () => {
  it('is enrolled with a code, then asked for at sign-in, each code once', async () => {
    const { token } = await invite('careful@hookline.test', 'viewer');
    const cookie = (await accept(token)).headers.get('set-cookie')!.split(';')[0]!;
    const started = await call('POST', '/auth/totp', { cookie, headers: same });
    expect(started.status, started.text).toBe(200);
    const key = base32Decode(started.body.secret);
    expect(started.body.uri).toContain(`secret=${started.body.secret}`);
    // Not on until confirmed: sign-in is still password-only.
    expect((await signIn('careful@hookline.test', 'a long new password')).response.status).toBe(204);

    expectError(
      await call('POST', '/auth/totp/confirm', { cookie, headers: same, body: { code: '000000' } }),
      422,
      'validation_failed',
      'code',
    );
    // Steps apart from each other, so each code below is a fresh one (a code is good once).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const code = () => hotp(key, totpStep(Date.now()));
      const confirmed = await call('POST', '/auth/totp/confirm', { cookie, headers: same, body: { code: code() } });
      expect(confirmed.body).toEqual({ totpEnabled: true });
      expect((await call('GET', '/auth/session', { cookie })).body.user.totpEnabled).toBe(true);

      const withoutCode = await signIn('careful@hookline.test', 'a long new password');
      expectError(withoutCode.response, 401, 'second_factor_required');
      expect(withoutCode.response.headers.get('set-cookie')).toBeNull();
      // A wrong password is still "wrong", never "now the code": the question reveals nothing.
      expectError(
        (await signIn('careful@hookline.test', 'wrong password', '123456')).response,
        401,
        'invalid_credentials',
      );

      vi.setSystemTime(Date.now() + 30_000);
      const fresh = code();
      expect((await signIn('careful@hookline.test', 'a long new password', fresh)).response.status).toBe(204);
      // The same code again: refused (replay).
      const replayed = await signIn('careful@hookline.test', 'a long new password', fresh);
      expectError(replayed.response, 401, 'invalid_credentials');
      expect(replayed.response.body).toBeDefined();

      vi.setSystemTime(Date.now() + 30_000);
      expect(
        (await call('POST', '/auth/totp/disable', { cookie, headers: same, body: { code: code() } })).body,
      ).toEqual({
        totpEnabled: false,
      });
      expect((await signIn('careful@hookline.test', 'a long new password')).response.status).toBe(204);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the audit log of members', () => {
  interface Row {
    action: string;
    resource_id: string;
    actor_label: string | null;
    changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
  }
  const rowsFor = async (resourceId: string) =>
    (
      await ctx.db.pool.query<Row>(
        `SELECT action, resource_id, actor_label, changes FROM hookline.audit_events
          WHERE resource_id = $1 ORDER BY created_at, id`,
        [resourceId],
      )
    ).rows;
  const sensitive = async () =>
    (
      await ctx.db.pool.query<{ reason: string }>(
        `SELECT data ->> 'reason' AS reason FROM hookline.operational_events
          WHERE type = 'audit.sensitive_change' ORDER BY created_at`,
      )
    ).rows.map((row) => row.reason);

  it('records the invitation, the join, a new owner (as a sensitive change), the sign-out and the removal', async () => {
    const invited = await invite('audited@hookline.test', 'developer');
    expect((await rowsFor(invited.invitation.id)).map((row) => [row.action, row.actor_label])).toEqual([
      ['invitation.created', ownerEmail],
    ]);
    expect((await accept(invited.token)).status).toBe(204);
    const { rows } = await ctx.db.pool.query<{ id: string }>(`SELECT id FROM hookline.admin_users WHERE email = $1`, [
      'audited@hookline.test',
    ]);
    const memberId = rows[0]!.id;

    const promoted = await call('PATCH', `/v1/members/${memberId}`, {
      cookie: owner,
      headers: same,
      body: { role: 'owner' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    expect(await sensitive()).toContain('audited@hookline.test was made an owner');
    expect((await call('DELETE', `/v1/members/${memberId}/sessions`, { cookie: owner, headers: same })).status).toBe(
      200,
    );
    expect((await call('DELETE', `/v1/members/${memberId}`, { cookie: owner, headers: same })).status).toBe(200);

    const trail = await rowsFor(memberId);
    expect(trail.map((row) => row.action)).toEqual([
      'member.joined',
      'member.updated',
      'member.signed_out_everywhere',
      'member.removed',
    ]);
    expect(trail[1]!.changes).toEqual({ before: { role: 'developer' }, after: { role: 'owner' } });
    // The join is the invited person's own act; the rest are the owner's.
    expect(trail.slice(1).map((row) => row.actor_label)).toEqual([ownerEmail, ownerEmail, ownerEmail]);
  });
});
