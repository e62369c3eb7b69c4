// The customer portal's API (app/portal/api) and its REST side (portal sessions, frame ancestors):
// a portal session reaches exactly one app, through the REST API's own handlers. For every portal
// route: another app's session gets 404 and changes no row, the session's own app works (so the 404
// is the scoping, not a missing route), expired/revoked/absent sessions get 401, read-only sessions
// get 403 on changes.
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { proxy } from '../../proxy';
import type { AnyOperation } from '../../lib/contract/operation';
import { operations } from '../../lib/contract/operations';
import { PORTAL_OPERATIONS } from '../../lib/http/portal/portal-operations';
import { appLimitedKey, call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { portalCall, portalRouteFiles, portalToken } from './support/portal';
import { createAppWorld, snapshotRows, type AppWorld } from './support/world';

let ctx: ApiTestContext;
let a: AppWorld;
let b: AppWorld;
let keyOfA: string;
let tokenOfA: string;
let tokenOfB: string;

const VALID_BODIES: Record<string, unknown> = {
  createEndpoint: { url: 'https://example.com/new' },
  updateEndpoint: { description: 'changed' },
  disableEndpoint: { reason: 'test' },
  rotateEndpointSecret: { gracePeriodSeconds: 0 },
  sendTestMessage: {},
  recoverEndpoint: { since: '2000-01-01T00:00:00Z' },
  backfillEndpoint: { since: '2000-01-01T00:00:00Z', dryRun: true },
  cancelJob: {},
};

const portalOperations = (Object.values(operations) as AnyOperation[]).filter((op) =>
  PORTAL_OPERATIONS.has(op.operationId),
);

function pathFor(operation: AnyOperation, app: string, owner: AppWorld): string {
  return `/v1${operation.path
    .replace('{appId}', app)
    .replace('{endpointId}', owner.endpointId)
    .replace('{messageId}', owner.messageId)
    .replace('{deliveryId}', owner.deliveryId)
    .replace('{eventTypeName}', 'invoice.paid')
    .replace('{jobId}', owner.jobId)}`;
}

beforeAll(async () => {
  ctx = await setUpApiTest();
  a = await createAppWorld(ctx.db.pool, 'a');
  b = await createAppWorld(ctx.db.pool, 'b');
  keyOfA = await appLimitedKey(a.appId);
  tokenOfA = await portalToken(a.appId);
  tokenOfB = await portalToken(b.appId);
});

describe('portal sessions over REST', () => {
  it('an app-limited key creates a session: a one-time URL on /portal/open, 1 hour by default', async () => {
    const response = await call('POST', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfA, body: {} });
    expect(response.status, response.text).toBe(201);
    const url = new URL(response.body.url);
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/portal/open`);
    expect(url.searchParams.get('token')).toMatch(/^hlp_[A-Za-z0-9_-]{43}$/);
    expect(response.body).toMatchObject({ appId: a.appId, readOnly: false, status: 'active', revokedAt: null });
    const lifetime = Date.parse(response.body.expiresAt) - Date.parse(response.body.createdAt);
    expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(5_000);
    // Only the hash is stored.
    const { rows } = await ctx.db.pool.query('SELECT token_hash FROM hookline.portal_sessions WHERE id = $1', [
      response.body.id,
    ]);
    expect(rows[0].token_hash).not.toContain(url.searchParams.get('token'));
  });

  it('takes a lifetime and read-only within bounds, and names the field that is out of them', async () => {
    const ok = await call('POST', `/v1/apps/${a.appId}/portal-sessions`, {
      key: keyOfA,
      body: { expiresInSeconds: 600, readOnly: true },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.readOnly).toBe(true);
    expect(Date.parse(ok.body.expiresAt) - Date.parse(ok.body.createdAt)).toBeLessThan(601_000);
    for (const [body, path] of [
      [{ expiresInSeconds: 10 }, 'expiresInSeconds'],
      [{ expiresInSeconds: 86_401 }, 'expiresInSeconds'],
      [{ readOnly: 'yes' }, 'readOnly'],
      [{ appId: b.appId }, ''],
    ] as const) {
      const response = await call('POST', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfA, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.details[0].path).toBe(path);
    }
  });

  it('uses HOOKLINE_PUBLIC_URL for the link when set', async () => {
    process.env.HOOKLINE_PUBLIC_URL = 'https://hooks.example.com';
    try {
      const response = await call('POST', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfA, body: {} });
      expect(response.body.url).toMatch(/^https:\/\/hooks\.example\.com\/portal\/open\?token=hlp_/);
    } finally {
      delete process.env.HOOKLINE_PUBLIC_URL;
    }
  });

  it('lists sessions without tokens and revokes one at once; another app cannot see or revoke them', async () => {
    const created = await call('POST', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfA, body: {} });
    const token = new URL(created.body.url).searchParams.get('token')!;
    expect((await portalCall('GET', `/v1/apps/${a.appId}/endpoints`, { token })).status).toBe(200);

    const list = await call('GET', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfA });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(created.body.id);
    expect(list.text).not.toContain(token);
    expect(list.body.data.every((s: { appId: string }) => s.appId === a.appId)).toBe(true);

    const keyOfB = await appLimitedKey(b.appId);
    expect((await call('GET', `/v1/apps/${a.appId}/portal-sessions`, { key: keyOfB })).status).toBe(404);
    expect(
      (await call('DELETE', `/v1/apps/${a.appId}/portal-sessions/${created.body.id}`, { key: keyOfB })).status,
    ).toBe(404);
    // A's session id under B's path: not found, and still active.
    expect(
      (await call('DELETE', `/v1/apps/${b.appId}/portal-sessions/${created.body.id}`, { key: ctx.adminKey })).status,
    ).toBe(404);
    expect((await portalCall('GET', `/v1/apps/${a.appId}/endpoints`, { token })).status).toBe(200);

    const revoked = await call('DELETE', `/v1/apps/${a.appId}/portal-sessions/${created.body.id}`, { key: keyOfA });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    const after = await portalCall('GET', `/v1/apps/${a.appId}/endpoints`, { token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
  });
});

describe('opening a portal link', () => {
  const open = (token: string, origin = ORIGIN) =>
    import('../../app/portal/open/route').then(({ GET }) => GET(new Request(`${origin}/portal/open?token=${token}`)));

  it('trades the token for an HttpOnly cookie on /portal and redirects to a URL without it', async () => {
    const token = await portalToken(a.appId);
    const response = await open(token);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/portal');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toContain(`hookline_portal=${token}`);
    expect(cookie).toMatch(/Path=\/portal;/);
    expect(cookie).toContain('HttpOnly');
    // Plain http cannot carry a Secure cookie, so SameSite=Lax here.
    expect(cookie).toContain('SameSite=Lax');
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeGreaterThan(3500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('over https the cookie is SameSite=None; Secure; Partitioned, so an embedded portal keeps it', async () => {
    const token = await portalToken(a.appId);
    const cookie = (await open(token, 'https://hooks.example.com')).headers.get('set-cookie')!;
    expect(cookie).toMatch(/SameSite=None; Secure; Partitioned/);
  });

  it('answers 401 and clears the cookie for an unknown, expired or revoked token', async () => {
    const expired = await portalToken(a.appId);
    await ctx.db.pool.query(
      `UPDATE hookline.portal_sessions SET expires_at = now() - interval '1 second' WHERE app_id = $1 AND created_at = (SELECT max(created_at) FROM hookline.portal_sessions)`,
      [a.appId],
    );
    const revoked = await portalToken(a.appId);
    await ctx.db.pool.query(
      `UPDATE hookline.portal_sessions SET revoked_at = now() WHERE created_at = (SELECT max(created_at) FROM hookline.portal_sessions)`,
    );
    for (const token of ['hlp_unknown', expired, revoked, '']) {
      const response = await open(token);
      expect(response.status, token).toBe(401);
      expect(response.headers.get('set-cookie')).toMatch(/hookline_portal=;.*Max-Age=0/);
      expect(await response.text()).toContain('expired');
    }
  });
});

describe('portal API: every route is scoped by the session', () => {
  it('has a route for every portal operation and for nothing else', () => {
    const routed = new Set<string>();
    for (const file of portalRouteFiles()) {
      const path = file.dir.replace(/^\/v1/, '').replace(/\[(\w+)\]/g, '{$1}');
      for (const op of Object.values(operations) as AnyOperation[])
        if (op.path === path) routed.add(`${op.method} ${path}`);
    }
    const expected = portalOperations.map((op) => `${op.method} ${op.path}`);
    expect(expected).toHaveLength(PORTAL_OPERATIONS.size);
    // Every allowed operation is reachable; route files for a path with other methods re-export only the allowed ones.
    for (const entry of expected) expect(routed.has(entry), entry).toBe(true);
  });

  for (const operation of portalOperations) {
    const body = VALID_BODIES[operation.operationId];
    it(`${operation.method} ${operation.path}: B's session on A's app gets 404 and changes nothing`, async () => {
      const before = await snapshotRows(ctx.db.pool);
      const response = await portalCall(operation.method, pathFor(operation, a.appId, a), { token: tokenOfB, body });
      expect(response.status, response.text).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(await snapshotRows(ctx.db.pool)).toEqual(before);
    });

    if (/\{(endpointId|deliveryId|eventTypeName|jobId)\}/.test(operation.path)) {
      it(`${operation.method} ${operation.path}: A's ids under B's own app get 404 and change nothing`, async () => {
        if (operation.path.includes('{eventTypeName}')) {
          await ctx.db.pool.query(
            `INSERT INTO hookline.event_types (app_id, name) VALUES ($1, 'only.in.a') ON CONFLICT DO NOTHING`,
            [a.appId],
          );
        }
        const before = await snapshotRows(ctx.db.pool);
        const path = pathFor(operation, b.appId, a).replace('invoice.paid', 'only.in.a');
        const response = await portalCall(operation.method, path, { token: tokenOfB, body });
        expect(response.status, response.text).toBe(404);
        expect(await snapshotRows(ctx.db.pool)).toEqual(before);
      });
    }

    it(`${operation.method} ${operation.path}: no, expired or revoked session gets 401; an API key or admin is not a portal session`, async () => {
      const expired = await portalToken(a.appId);
      await ctx.db.pool.query(
        `UPDATE hookline.portal_sessions SET expires_at = now() - interval '1 second' WHERE app_id = $1 AND expires_at > now() + interval '50 minutes' AND created_at = (SELECT max(created_at) FROM hookline.portal_sessions)`,
        [a.appId],
      );
      const revoked = await portalToken(a.appId);
      await ctx.db.pool.query(
        `UPDATE hookline.portal_sessions SET revoked_at = now() WHERE created_at = (SELECT max(created_at) FROM hookline.portal_sessions)`,
      );
      const before = await snapshotRows(ctx.db.pool);
      for (const token of [undefined, expired, revoked, 'hlp_forged']) {
        const response = await portalCall(operation.method, pathFor(operation, a.appId, a), { token, body });
        expect(response.status, `${token}: ${response.text}`).toBe(401);
      }
      // A deployment-wide key on a portal path: the portal accepts its cookie only.
      const withKey = await portalCall(operation.method, pathFor(operation, a.appId, a), {
        headers: { authorization: `Bearer ${ctx.adminKey}` },
        body,
      });
      expect(withKey.status).toBe(401);
      expect(await snapshotRows(ctx.db.pool)).toEqual(before);
    });

    if (operation.method !== 'GET') {
      it(`${operation.method} ${operation.path}: a read-only session gets 403 and changes nothing`, async () => {
        const token = await portalToken(a.appId, { readOnly: true });
        const before = await snapshotRows(ctx.db.pool);
        const response = await portalCall(operation.method, pathFor(operation, a.appId, a), { token, body });
        expect(response.status, response.text).toBe(403);
        expect(response.body.error.code).toBe('portal_read_only');
        expect(await snapshotRows(ctx.db.pool)).toEqual(before);
      });

      it(`${operation.method} ${operation.path}: a change without our Origin (CSRF) gets 403 and changes nothing`, async () => {
        const before = await snapshotRows(ctx.db.pool);
        const response = await portalCall(operation.method, pathFor(operation, a.appId, a), {
          token: tokenOfA,
          body,
          origin: 'https://evil.example',
        });
        expect(response.status, response.text).toBe(403);
        expect(response.body.error.code).toBe('csrf_rejected');
        expect(await snapshotRows(ctx.db.pool)).toEqual(before);
      });
    }
  }

  // Last, since these change A's rows: the session's own app works on every route.
  for (const operation of portalOperations) {
    it(`${operation.method} ${operation.path}: A's session on A's app succeeds`, async () => {
      const response = await portalCall(operation.method, pathFor(operation, a.appId, a), {
        token: tokenOfA,
        body: VALID_BODIES[operation.operationId],
      });
      expect(response.status, response.text).toBe(operation.status);
      if (operation.path.endsWith('/endpoints') && operation.method === 'GET') {
        expect(response.body.data.map((e: { appId: string }) => e.appId)).toEqual([a.appId]);
      }
    });
  }

  it("filters naming another app's ids find nothing (the session's app bounds every query)", async () => {
    for (const query of [`endpointId=${b.endpointId}`, `messageId=${b.messageId}`, `id=${b.deliveryId}`]) {
      const response = await portalCall('GET', `/v1/apps/${a.appId}/deliveries?${query}`, { token: tokenOfA });
      expect(response.status, query).toBe(200);
      expect(response.body.data, query).toEqual([]);
    }
    // The same filters with B's own session do find B's delivery, so the empty answers above are the scoping.
    const own = await portalCall('GET', `/v1/apps/${b.appId}/deliveries?id=${b.deliveryId}`, { token: tokenOfB });
    expect(own.body.data.map((d: { id: string }) => d.id)).toEqual([b.deliveryId]);
  });

  it('a read-only session reads, but does not see signing secrets', async () => {
    const token = await portalToken(a.appId, { readOnly: true });
    expect((await portalCall('GET', `/v1/apps/${a.appId}/deliveries`, { token })).status).toBe(200);
    const secret = await portalCall('GET', `/v1/apps/${a.appId}/endpoints/${a.endpointId}/secret`, { token });
    expect(secret.status).toBe(403);
    expect(secret.text).not.toContain('whsec_');
  });

  it('operations outside the portal do not exist there (deleting an endpoint, changing event types)', async () => {
    const before = await snapshotRows(ctx.db.pool);
    expect(
      (await portalCall('DELETE', `/v1/apps/${a.appId}/endpoints/${a.endpointId}`, { token: tokenOfA })).status,
    ).toBe(405);
    expect(
      (await portalCall('POST', `/v1/apps/${a.appId}/event-types`, { token: tokenOfA, body: { name: 'x.y' } })).status,
    ).toBe(405);
    expect((await portalCall('PATCH', `/v1/apps/${a.appId}`, { token: tokenOfA, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect(await snapshotRows(ctx.db.pool)).toEqual(before);
  });
});

describe('embedding: frame ancestors per app', () => {
  afterEach(async () => {
    await ctx.db.pool.query(`UPDATE hookline.apps SET portal_frame_ancestors = '{}'`);
  });

  it('PATCH /apps/{appId} sets them; anything but a bare origin is refused by name', async () => {
    const ok = await call('PATCH', `/v1/apps/${a.appId}`, {
      key: keyOfA,
      body: {
        portalFrameAncestors: ['https://app.customer.example', 'https://*.embed.example', 'http://localhost:3000'],
      },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.portalFrameAncestors).toEqual([
      'https://app.customer.example',
      'https://*.embed.example',
      'http://localhost:3000',
    ]);
    expect(ok.body.name).toBe('a');
    // Each refused by its field and value, with what is wrong with it.
    for (const [bad, why] of [
      ["'self'", /must start with https:\/\/ or http:\/\//],
      ['https://a.example/path', /no path, query or fragment/],
      ['https://a.example/', /no path, query or fragment/],
      ['https://a.example?x=1', /no path, query or fragment/],
      ['https://a.example#top', /no path, query or fragment/],
      ['https://a.example; script-src *', /must be one origin/],
      ['*', /must start with/],
      ['javascript:alert(1)', /must start with/],
      ['ftp://a.example', /must start with/],
      ['https://a.example https://b.example', /must be one origin/],
      ['https://a.example,https://b.example', /must be one origin/],
      ['https://a_b.example', /host must be/],
      ['https://*', /host must be/],
      ['https://a.*.example', /host must be/],
      ['https://user:pass@a.example', /no user name or password/],
      ['https://a.example:99999', /port must be 1 to 65535/],
      ['https://a.example:65536', /port must be 1 to 65535/],
      ['https://a.example:0', /port must be 1 to 65535/],
      ['https://a.example:080', /port must be 1 to 65535/],
      ['https://a.example:', /port must be 1 to 65535/],
      [`https://${'a'.repeat(64)}.example`, /host must be/],
      [`https://${'abcdefghi.'.repeat(26)}example`, /host must be/],
    ] as const) {
      const response = await call('PATCH', `/v1/apps/${a.appId}`, {
        key: keyOfA,
        body: { portalFrameAncestors: ['https://fine.example', bad] },
      });
      expectError(response, 422, 'validation_failed', 'portalFrameAncestors.1');
      expect(response.body.error.message, bad).toContain(`portalFrameAncestors.1: ${JSON.stringify(bad)} `);
      expect(response.body.error.message, bad).toMatch(why);
    }
    // The bounds themselves are fine.
    const bounds = await call('PATCH', `/v1/apps/${b.appId}`, {
      key: ctx.adminKey,
      body: {
        portalFrameAncestors: ['https://a.example:1', 'https://a.example:65535', `https://${'a'.repeat(63)}.example`],
      },
    });
    expect(bounds.status, bounds.text).toBe(200);
    const empty = await call('PATCH', `/v1/apps/${a.appId}`, { key: keyOfA, body: {} });
    expect(empty.status).toBe(422);
    const unchanged = await call('GET', `/v1/apps/${a.appId}`, { key: keyOfA });
    expect(unchanged.body.portalFrameAncestors).toHaveLength(3);
  });

  const pageCsp = async (path: string, token?: string) => {
    const request = new NextRequest(`${ORIGIN}${path}`, {
      headers: token ? { cookie: `hookline_portal=${token}` } : {},
    });
    const response = await proxy(request);
    return { csp: response.headers.get('content-security-policy')!, xfo: response.headers.get('x-frame-options') };
  };

  it("a portal page may be framed by its app's origins only; other apps' portals and the dashboard by none", async () => {
    await call('PATCH', `/v1/apps/${a.appId}`, {
      key: keyOfA,
      body: { portalFrameAncestors: ['https://app.customer.example'] },
    });
    const ofA = await pageCsp('/portal', tokenOfA);
    expect(ofA.csp).toMatch(/frame-ancestors https:\/\/app\.customer\.example(;|$)/);
    expect(ofA.xfo).toBeNull();
    const ofB = await pageCsp('/portal/endpoints', tokenOfB);
    expect(ofB.csp).toContain("frame-ancestors 'none'");
    expect(ofB.xfo).toBe('DENY');
    // The admin dashboard stays unframeable, whatever cookie comes along.
    const dashboard = await pageCsp(`/apps/${a.appId}/endpoints`, tokenOfA);
    expect(dashboard.csp).toContain("frame-ancestors 'none'");
    // No session (expired link): unframeable too.
    expect((await pageCsp('/portal')).csp).toContain("frame-ancestors 'none'");
  });
});
