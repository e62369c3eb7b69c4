// Issue 23, items 11 and 12, on the server side: the branding an operator gives an app's portal (held
// to what cannot carry markup or reach another host, by the API and by the database), the per-endpoint
// stats the portal shows (the session's app only, from the rollups), and what /portal/open answers an
// iframe of another site over plain http (an explanation the browser may show, not a refused frame).
import { NextRequest } from 'next/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { proxy } from '../../proxy';
import { appLimitedKey, call, ORIGIN, setUpApiTest, type ApiTestContext } from './support/api';
import { expectError } from './support/expect-error';
import { portalCall, portalToken } from './support/portal';
import { createAppWorld, type AppWorld } from './support/world';
import { insertRollup } from '../support/rollups';

let ctx: ApiTestContext;
let a: AppWorld;
let b: AppWorld;
let keyOfA: string;
let tokenOfA: string;
let tokenOfB: string;

beforeAll(async () => {
  ctx = await setUpApiTest();
  a = await createAppWorld(ctx.db.pool, 'a');
  b = await createAppWorld(ctx.db.pool, 'b');
  keyOfA = await appLimitedKey(a.appId);
  tokenOfA = await portalToken(a.appId);
  tokenOfB = await portalToken(b.appId);
});

const brandingOf = async (appId: string) =>
  (
    await ctx.db.pool.query(
      'SELECT portal_name, portal_logo_url, portal_accent_color FROM hookline.apps WHERE id = $1',
      [appId],
    )
  ).rows[0];

describe('portal branding', () => {
  afterEach(async () => {
    await ctx.db.pool.query(
      'UPDATE hookline.apps SET portal_name = NULL, portal_logo_url = NULL, portal_accent_color = NULL',
    );
  });

  it('PATCH /apps/{appId} sets name, https logo and #rrggbb colour; GET shows them; null clears one', async () => {
    const set = await call('PATCH', `/v1/apps/${a.appId}`, {
      key: keyOfA,
      body: {
        portalName: '  Acme Webhooks ',
        portalLogoUrl: 'https://cdn.acme.example/logo.svg?v=2',
        portalAccentColor: '#4F46E5',
      },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      portalName: 'Acme Webhooks',
      portalLogoUrl: 'https://cdn.acme.example/logo.svg?v=2',
      portalAccentColor: '#4f46e5',
    });
    expect((await call('GET', `/v1/apps/${a.appId}`, { key: keyOfA })).body.portalAccentColor).toBe('#4f46e5');
    const cleared = await call('PATCH', `/v1/apps/${a.appId}`, { key: keyOfA, body: { portalLogoUrl: null } });
    expect(cleared.body).toMatchObject({
      portalName: 'Acme Webhooks',
      portalLogoUrl: null,
      portalAccentColor: '#4f46e5',
    });
    // The other app is untouched.
    expect(await brandingOf(b.appId)).toEqual({ portal_name: null, portal_logo_url: null, portal_accent_color: null });
  });

  it('takes an upper-case HTTPS:// logo URL with its scheme in lower case, as the database check wants it', async () => {
    const set = await call('PATCH', `/v1/apps/${a.appId}`, {
      key: keyOfA,
      body: { portalLogoUrl: 'HTTPS://cdn.acme.example/Logo.svg' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.portalLogoUrl).toBe('https://cdn.acme.example/Logo.svg');
    expect((await brandingOf(a.appId)).portal_logo_url).toBe('https://cdn.acme.example/Logo.svg');
  });

  it('refuses, by field, a logo that is not https or could end an attribute, and a colour that is not #rrggbb', async () => {
    const refused: [string, unknown, RegExp][] = [
      ['portalLogoUrl', 'http://cdn.acme.example/logo.svg', /must start with https:\/\//],
      ['portalLogoUrl', 'javascript:alert(1)', /must start with https:\/\//],
      ['portalLogoUrl', 'data:image/svg+xml,<svg onload=alert(1)>', /no spaces, quotes, angle brackets/],
      ['portalLogoUrl', 'https://a.example/x"onerror="alert(1)', /no spaces, quotes, angle brackets/],
      ['portalLogoUrl', "https://a.example/x'", /no spaces, quotes, angle brackets/],
      ['portalLogoUrl', 'https://a.example/x; script-src *', /no spaces, quotes/],
      ['portalLogoUrl', 'https://user:pw@a.example/logo.png', /no user name or password/],
      ['portalLogoUrl', '//a.example/logo.png', /must be an absolute URL/],
      ['portalLogoUrl', `https://a.example/${'x'.repeat(2000)}`, /at most 2000/],
      ['portalAccentColor', 'red', /#rrggbb/],
      ['portalAccentColor', '#fff', /#rrggbb/],
      ['portalAccentColor', '#12345g', /#rrggbb/],
      ['portalAccentColor', '#123456;background:url(https://x.example)', /#rrggbb/],
      ['portalName', '', /./],
      ['portalName', 'n'.repeat(201), /./],
    ];
    for (const [field, value, why] of refused) {
      const response = await call('PATCH', `/v1/apps/${a.appId}`, { key: keyOfA, body: { [field]: value } });
      expectError(response, 422, 'validation_failed', field);
      expect(response.body.error.message, `${field}=${String(value)}`).toMatch(why);
    }
    expect(await brandingOf(a.appId)).toEqual({ portal_name: null, portal_logo_url: null, portal_accent_color: null });
  });

  it('the database refuses a logo that is not https and a colour that is not #rrggbb, whoever writes', async () => {
    for (const [column, value] of [
      ['portal_logo_url', 'javascript:alert(1)'],
      ['portal_logo_url', 'https://a.example/"><script>'],
      ['portal_accent_color', 'red;background:url(x)'],
      ['portal_name', ''],
    ]) {
      await expect(
        ctx.db.pool.query(`UPDATE hookline.apps SET ${column} = $1 WHERE id = $2`, [value, a.appId]),
        `${column}=${value}`,
      ).rejects.toThrow(/check constraint/);
    }
  });

  const portalCsp = async (token: string) =>
    (await proxy(new NextRequest(`${ORIGIN}/portal`, { headers: { cookie: `hookline_portal=${token}` } }))).headers.get(
      'content-security-policy',
    )!;

  it("a portal page's img-src allows the origin of its own app's logo, and no other", async () => {
    await call('PATCH', `/v1/apps/${a.appId}`, {
      key: keyOfA,
      body: { portalLogoUrl: 'https://cdn.acme.example:8443/brand/logo.png' },
    });
    expect(await portalCsp(tokenOfA)).toMatch(/img-src 'self' data: blob: https:\/\/cdn\.acme\.example:8443;/);
    expect(await portalCsp(tokenOfB)).toMatch(/img-src 'self' data: blob:;/);
    const dashboard = (await proxy(new NextRequest(`${ORIGIN}/overview`))).headers.get('content-security-policy')!;
    expect(dashboard).not.toContain('acme');
  });
});

describe("an endpoint's stats in the portal", () => {
  it("success rate and latency p50/p95 over the range, from the rollups, for the session's app only", async () => {
    // 9 successes at 5-10 ms and 1 failure at 500-1000 ms ten minutes ago in a's endpoint; 50 in b's.
    const minute = new Date(Date.now() - 10 * 60_000);
    const histogram = (index: number, count: number) => Array.from({ length: 15 }, (_, i) => (i === index ? count : 0));
    await insertRollup(ctx.db.pool, {
      minute,
      appId: a.appId,
      endpointId: a.endpointId,
      outcome: 'succeeded',
      errorClass: '',
      statusCode: 200,
      attempts: 9,
      latencyBuckets: histogram(3, 9),
    });
    await insertRollup(ctx.db.pool, {
      minute,
      appId: a.appId,
      endpointId: a.endpointId,
      outcome: 'failed',
      errorClass: 'http_5xx',
      statusCode: 500,
      attempts: 1,
      latencyBuckets: histogram(9, 1),
    });
    await insertRollup(ctx.db.pool, {
      minute,
      appId: b.appId,
      endpointId: b.endpointId,
      outcome: 'succeeded',
      errorClass: '',
      statusCode: 200,
      attempts: 50,
      latencyBuckets: histogram(6, 50),
    });
    const to = new Date().toISOString();
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const path = `/v1/apps/${a.appId}/endpoints/${a.endpointId}/stats?from=${from}&to=${to}`;
    const response = await portalCall('GET', path, { token: tokenOfA });
    expect(response.status, response.text).toBe(200);
    expect(response.body.totals).toMatchObject({ attempts: 10, succeeded: 9, failed: 1, successRate: 0.9 });
    expect(response.body.totals.latencyMs.p50).toBeGreaterThan(5);
    expect(response.body.totals.latencyMs.p50).toBeLessThanOrEqual(10);
    expect(response.body.totals.latencyMs.p95).toBeGreaterThan(500);
    expect(response.body.series.reduce((sum: number, p: { succeeded: number }) => sum + p.succeeded, 0)).toBe(9);
    // Nothing of the deployment: no queue, no replica, no other endpoints.
    expect(Object.keys(response.body).sort()).toEqual(['bucketSeconds', 'from', 'series', 'to', 'totals']);
    // Another app's session: its own app in the path is not a's endpoint; a's app in the path is not its app.
    expect((await portalCall('GET', path, { token: tokenOfB })).status).toBe(404);
    const bPath = `/v1/apps/${b.appId}/endpoints/${a.endpointId}/stats`;
    expect((await portalCall('GET', bPath, { token: tokenOfB })).status).toBe(404);
    // The REST API answers the same for the operator.
    const rest = await call('GET', path, { key: keyOfA });
    expect(rest.body.totals).toEqual(response.body.totals);
  });
});

describe('opening a portal link in an iframe of another site over plain http', () => {
  const open = (token: string, origin: string, headers: Record<string, string>) =>
    import('../../app/portal/open/route').then(({ GET }) =>
      GET(new Request(`${origin}/portal/open?token=${token}`, { headers })),
    );
  const crossSiteFrame = { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'cross-site' };

  afterEach(async () => {
    await ctx.db.pool.query(`UPDATE hookline.apps SET portal_frame_ancestors = '{}'`);
  });

  it('answers a page saying why, framed by the allowed origins, with a link to open it in a tab', async () => {
    await ctx.db.pool.query(
      `UPDATE hookline.apps SET portal_frame_ancestors = '{http://shop.example:8080}' WHERE id = $1`,
      [a.appId],
    );
    const token = await portalToken(a.appId);
    const response = await open(token, ORIGIN, crossSiteFrame);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors http:\/\/shop\.example:8080$/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('cannot be shown inside this page');
    expect(html).toContain('SameSite');
    expect(html).toContain(`href="/portal/open?token=${token}" target="_blank"`);
  });

  it('redirects as before when the frame is same-site, the page is top-level, or the connection is https', async () => {
    const token = await portalToken(a.appId);
    for (const [origin, headers] of [
      [ORIGIN, { 'sec-fetch-dest': 'iframe', 'sec-fetch-site': 'same-site' }],
      [ORIGIN, { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'cross-site' }],
      [ORIGIN, {}],
      ['https://hooks.example.com', crossSiteFrame],
    ] as const) {
      const response = await open(token, origin, headers);
      expect(response.status, JSON.stringify([origin, headers])).toBe(303);
      expect(response.headers.get('location')).toBe('/portal');
    }
  });
});
