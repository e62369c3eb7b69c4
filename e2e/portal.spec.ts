import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import {
  api,
  createApp,
  expectNoHorizontalOverflow,
  listDeliveries,
  screenshot,
  sendMessages,
  setReceiverMode,
  signIn,
} from './support/helpers';

// The customer's portal in Chromium, for two apps: the operator's backend creates a link with an
// app-limited key, the customer opens it (the token leaves the address bar), and works on that app's
// endpoints, event types and deliveries, never seeing the other app's.

async function portalUrl(appId: string, body: Record<string, unknown> = {}): Promise<string> {
  // An app-limited key, as an operator's backend would hold: enough to create the app's portal links.
  const { key } = await api<{ key: string }>('POST', '/api-keys', { name: `portal links of ${appId}`, appId });
  const response = await fetch(`${e2eEnv().baseUrl}/api/v1/apps/${appId}/portal-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { url: string }).url;
}

async function openPortal(page: Page, url: string): Promise<void> {
  await page.goto(url);
  // Traded for a cookie and redirected: the token is in neither the address bar nor script reach.
  await page.waitForURL(`${e2eEnv().baseUrl}/portal`);
  expect(page.url()).not.toContain('token');
  expect(await page.evaluate(() => document.cookie)).not.toContain('hlp_');
}

async function pictures(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page, `${name} at 375 px`);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('two apps: each portal shows and changes only its own app', async ({ browser }) => {
  test.setTimeout(180_000);
  const env = e2eEnv();
  await setReceiverMode('ok');
  const alpha = await createApp({ name: 'Portal Alpha', eventTypes: ['order.created'] });
  const beta = await createApp({ name: 'Portal Beta', eventTypes: ['shipment.sent'] });
  await api('POST', `/apps/${alpha.appId}/event-types`, {
    name: 'invoice.paid',
    description: 'An invoice was paid in full.',
    schema: {
      type: 'object',
      required: ['invoiceId', 'amount'],
      properties: {
        invoiceId: { type: 'string', examples: ['inv_1042'] },
        amount: { type: 'integer', minimum: 1 },
        paidAt: { type: 'string', format: 'date-time' },
      },
    },
  });
  await sendMessages(2, { appId: alpha.appId, eventType: 'order.created' });
  await sendMessages(1, { appId: beta.appId, eventType: 'shipment.sent' });

  const alphaContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await alphaContext.newPage();
  await openPortal(page, await portalUrl(alpha.appId));

  // Endpoints: Alpha's only, in the portal's own shell (no dashboard navigation).
  await expect(page.getByTestId('portal-app-name')).toHaveText('Portal Alpha');
  await expect(page.getByTestId('endpoint-row')).toHaveCount(1);
  await expect(page.getByTestId('endpoints-table')).toContainText(alpha.endpointUrl);
  await expect(page.getByTestId('endpoints-table')).not.toContainText(beta.endpointUrl);
  await expect(page.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  await pictures(page, 'portal-endpoints');

  // Create an endpoint; its secret is shown once.
  const newUrl = `${env.receiverUrl}/hooks/portal-alpha-added`;
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByLabel('URL').fill(newUrl);
  await page.getByLabel('Description').fill('Added from the portal');
  await page.getByRole('dialog').getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('new-endpoint-secret')).toContainText('whsec_');
  await page.getByRole('link', { name: 'Open endpoint' }).click();
  await expect(page.getByTestId('endpoint-url')).toHaveText(newUrl);

  // Send a test event and watch it succeed.
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('dialog')).toContainText('Sent message');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('delivery-row').first()).toContainText(/succeeded/i, { timeout: 20_000 });

  // See the secret, rotate it (two secrets during the grace period).
  await page.getByRole('button', { name: 'Show secret' }).click();
  await expect(page.getByTestId('endpoint-secrets').locator('li')).toHaveCount(1);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByTestId('confirm-rotate').click();
  await expect(page.getByTestId('rotated-secret')).toContainText('whsec_');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Show secret' }).click();
  await expect(page.getByTestId('endpoint-secrets').locator('li')).toHaveCount(2);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // Edit, disable with a reason, enable.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Description').fill('Edited in the portal');
  await page.getByRole('dialog').getByRole('button', { name: /save/i }).click();
  await expect(page.getByText('Edited in the portal')).toBeVisible();
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByLabel('Reason (shown on the endpoint)').fill('Our server is moving');
  await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Our server is moving' })).toBeVisible();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();
  await pictures(page, 'portal-endpoint');

  // Recover: deliveries that died while the receiver failed are sent again.
  await setReceiverMode('fail');
  const [failedMessage] = await sendMessages(1, { appId: alpha.appId, eventType: 'order.created' });
  await expect
    .poll(
      async () => (await listDeliveries(alpha.appId, 'state=dead')).filter((d) => d.messageId === failedMessage).length,
      {
        timeout: 30_000,
      },
    )
    .toBe(2);
  await setReceiverMode('ok');
  await page.getByRole('button', { name: 'Recover…' }).click();
  await expect(page.getByTestId('recover-count')).toContainText('1');
  await page.getByRole('dialog').getByRole('button', { name: 'Replay failed since then' }).click();
  // Recover runs as a background job, which the portal follows to its end (its own app's only).
  await expect(page.getByRole('dialog')).toContainText('Done: 1 delivery replayed.', { timeout: 30_000 });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // Event types: read-only, with schema and derived example.
  await page.getByRole('link', { name: 'Event types' }).click();
  const invoice = page.getByTestId('event-type-reference').filter({ hasText: 'invoice.paid' });
  await expect(invoice).toContainText('"invoiceId": "inv_1042"');
  await expect(invoice).toContainText('"amount": 1');
  await expect(invoice).toContainText('An invoice was paid in full.');
  await expect(page.getByTestId('event-type-reference')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /delete|edit|new/i })).toHaveCount(0);
  await pictures(page, 'portal-event-types');

  // Deliveries and attempts: the other endpoint's dead delivery, replayed from its page.
  await page.getByRole('link', { name: 'Deliveries' }).click();
  await expect(page.getByTestId('delivery-row').first()).toBeVisible();
  await expect(page.getByTestId('deliveries-table')).not.toContainText('shipment.sent');
  await page.getByLabel('State').selectOption('dead');
  await expect(page.getByTestId('delivery-row')).toHaveCount(1);
  await pictures(page, 'portal-deliveries');
  await page.getByTestId('delivery-row').first().getByRole('link').first().click();
  await expect(page.getByTestId('delivery-state')).toContainText(/dead/i);
  await expect(page.getByText('Attempts, newest first')).toBeVisible();
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByTestId('delivery-state')).toContainText(/succeeded/i, { timeout: 20_000 });
  await pictures(page, 'portal-delivery');

  // Beta's portal, in another browser: Beta's endpoint only; Alpha's ids are not found.
  const betaContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const betaPage = await betaContext.newPage();
  await openPortal(betaPage, await portalUrl(beta.appId, { readOnly: true }));
  await expect(betaPage.getByTestId('portal-app-name')).toHaveText('Portal Beta');
  await expect(betaPage.getByTestId('endpoint-row')).toHaveCount(1);
  await expect(betaPage.getByTestId('endpoints-table')).toContainText(beta.endpointUrl);
  await expect(betaPage.getByText('Read-only')).toBeVisible();
  await expect(betaPage.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
  await pictures(betaPage, 'portal-beta-read-only');
  await betaPage.goto(`${env.baseUrl}/portal/endpoints/${alpha.endpointId}`);
  await expect(betaPage.getByTestId('portal-not-found')).toBeVisible();
  const direct = await betaPage.request.get(`${env.baseUrl}/portal/api/v1/apps/${alpha.appId}/endpoints`);
  expect(direct.status()).toBe(404);
  await betaPage.getByRole('link', { name: 'Endpoints', exact: true }).click();
  await betaPage.getByTestId('endpoint-row').getByRole('link').first().click();
  await expect(betaPage.getByRole('button', { name: 'Show secret' })).toHaveCount(0);

  // Revoked by the operator while the page is open: its next live refresh gets a 401 and the page shows
  // the ended session (never the admin's sign-in page, which means nothing to a customer); so does
  // every later page load, and the API answers 401.
  const sessions = await api<{ data: { id: string; status: string }[] }>('GET', `/apps/${beta.appId}/portal-sessions`);
  await api('DELETE', `/apps/${beta.appId}/portal-sessions/${sessions.data[0]!.id}`);
  await expect(betaPage.getByTestId('portal-expired')).toBeVisible();
  expect(new URL(betaPage.url()).pathname).toMatch(/^\/portal\//);
  await betaPage.reload();
  await expect(betaPage.getByTestId('portal-expired')).toBeVisible();
  expect((await betaPage.request.get(`${env.baseUrl}/portal/api/v1/apps/${beta.appId}/endpoints`)).status()).toBe(401);
  await screenshot(betaPage, 'portal-revoked-1280');

  await alphaContext.close();
  await betaContext.close();
});

test("a portal page for another app's id, or an id that names nothing, answers 404 as the API does", async ({
  browser,
}) => {
  const env = e2eEnv();
  await setReceiverMode('ok');
  const alpha = await createApp({ name: 'Portal Missing Alpha', eventTypes: ['order.created'] });
  const beta = await createApp({ name: 'Portal Missing Beta', eventTypes: ['order.created'] });
  await sendMessages(1, { appId: alpha.appId });
  await sendMessages(1, { appId: beta.appId });
  const deliveryOf = async (appId: string) => {
    await expect.poll(async () => (await listDeliveries(appId)).length).toBe(1);
    return (await listDeliveries(appId))[0]!.id;
  };
  const alphaDelivery = await deliveryOf(alpha.appId);
  const betaDelivery = await deliveryOf(beta.appId);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openPortal(page, await portalUrl(beta.appId));
  const statusOf = async (path: string) => (await page.request.get(`${env.baseUrl}${path}`)).status();

  // Its own: 200.
  expect(await statusOf(`/portal/endpoints/${beta.endpointId}`)).toBe(200);
  expect(await statusOf(`/portal/deliveries/${betaDelivery}`)).toBe(200);
  // Another app's, unknown, or no id at all (NUL, longer than any id): 404, like the portal's API.
  const missing = [
    `/portal/endpoints/${alpha.endpointId}`,
    `/portal/deliveries/${alphaDelivery}`,
    '/portal/endpoints/ep_nothing',
    '/portal/deliveries/dlv_nothing',
    `/portal/deliveries/dlv_${'0'.repeat(32)}`,
    '/portal/endpoints/%00',
    `/portal/deliveries/${'d'.repeat(300)}`,
  ];
  for (const path of missing) expect(await statusOf(path), path).toBe(404);
  expect(
    (await page.request.get(`${env.baseUrl}/portal/api/v1/apps/${beta.appId}/endpoints/${alpha.endpointId}`)).status(),
  ).toBe(404);

  // In the browser: the portal's own not-found page, inside the portal's shell.
  const response = await page.goto(`${env.baseUrl}/portal/endpoints/${alpha.endpointId}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('portal-not-found')).toBeVisible();
  await expect(page.getByTestId('portal-app-name')).toHaveText('Portal Missing Beta');
  await screenshot(page, 'portal-not-found-1280');
  await page.getByRole('link', { name: 'Back to your endpoints' }).click();
  await expect(page.getByTestId('endpoint-row')).toHaveCount(1);

  // Without a session the page says the session ended, whatever the id.
  await context.clearCookies();
  await page.goto(`${env.baseUrl}/portal/endpoints/${alpha.endpointId}`);
  await expect(page.getByTestId('portal-expired')).toBeVisible();
  await context.close();
});

// A page of the operator's own product that embeds the portal, served from another loopback origin.
async function embeddingSite(portalLink: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>Operator product</title><h1>Your webhooks</h1>
      <iframe id="portal" src="${portalLink}" style="width:100%;height:600px;border:1px solid #ccc"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('the portal embeds in an iframe on an allowed origin only; the dashboard never', async ({ page }) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'Portal Embedded', eventTypes: ['order.created'] });
  const allowed = await embeddingSite(await portalUrl(app.appId));
  const other = await embeddingSite(await portalUrl(app.appId));
  try {
    await api('PATCH', `/apps/${app.appId}`, { portalFrameAncestors: [allowed.origin] });

    await page.goto(allowed.origin);
    const frame = page.frameLocator('#portal');
    await expect(frame.getByTestId('portal-app-name')).toHaveText('Portal Embedded');
    await expect(frame.getByTestId('endpoint-row')).toHaveCount(1);
    await screenshot(page, 'portal-embedded-1280');

    // The header the browser enforced, as served to that session.
    const portalHeaders = (await page.request.get(`${env.baseUrl}/portal`)).headers();
    expect(portalHeaders['content-security-policy']).toContain(`frame-ancestors ${allowed.origin}`);
    expect(portalHeaders['x-frame-options']).toBeUndefined();

    const refused = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await page.goto(other.origin);
    await refused;
    await expect(page.frameLocator('#portal').getByTestId('portal-app-name')).toHaveCount(0);

    // The admin dashboard stays unframeable.
    const dashboard = await page.request.get(`${env.baseUrl}/sign-in`);
    expect(dashboard.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(dashboard.headers()['x-frame-options']).toBe('DENY');
  } finally {
    allowed.server.close();
    other.server.close();
  }
});

test("the dashboard sets who may embed an app's portal, and opens the portal read-only", async ({ page, context }) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'Portal Settings', eventTypes: ['order.created'] });
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/settings`);
  const field = page.getByLabel('Sites allowed to embed the portal');
  await field.fill('https://app.customer.example/settings');
  await page.getByRole('button', { name: 'Allow these sites' }).click();
  await expect(
    page.getByText(
      'portalFrameAncestors.0: "https://app.customer.example/settings" is not an origin: must have no path',
    ),
  ).toBeVisible();
  expect((await api<{ portalFrameAncestors: string[] }>('GET', `/apps/${app.appId}`)).portalFrameAncestors).toEqual([]);
  await field.fill('https://app.customer.example\nhttps://*.customer.example');
  await page.getByRole('button', { name: 'Allow these sites' }).click();
  await expect(page.getByText('Embedding sites updated.')).toBeVisible();
  expect((await api<{ portalFrameAncestors: string[] }>('GET', `/apps/${app.appId}`)).portalFrameAncestors).toEqual([
    'https://app.customer.example',
    'https://*.customer.example',
  ]);
  await screenshot(page, 'portal-settings-1280');

  const popup = context.waitForEvent('page');
  await page.getByRole('button', { name: /Open the portal/ }).click();
  const portal = await popup;
  await portal.waitForURL(`${env.baseUrl}/portal`);
  await expect(portal.getByTestId('portal-app-name')).toHaveText('Portal Settings');
  await expect(portal.getByText('Read-only')).toBeVisible();
  const headers = (await portal.request.get(`${env.baseUrl}/portal`)).headers();
  expect(headers['content-security-policy']).toContain(
    'frame-ancestors https://app.customer.example https://*.customer.example',
  );
});

test("the portal shows its operator's branding, and each endpoint's success rate and latency over a chosen range", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  await setReceiverMode('ok');
  const app = await createApp({ name: 'Portal Branded internal name', eventTypes: ['order.created'] });
  await api('PATCH', `/apps/${app.appId}`, {
    portalName: 'Acme Webhooks',
    // Nothing answers there: the test looks at the element and the policy, not the picture.
    portalLogoUrl: 'https://127.0.0.1:9/acme-logo.svg',
    portalAccentColor: '#4F46E5',
  });
  await sendMessages(3, { appId: app.appId });
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).length, { timeout: 20_000 })
    .toBe(3);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/portal');
  await openPortal(page, await portalUrl(app.appId));
  // The branding: the name the customer knows (not the app's internal one), the logo, the accent colour.
  await expect(page.getByTestId('portal-app-name')).toHaveText('Acme Webhooks');
  await expect(page.getByText('Portal Branded internal name')).toHaveCount(0);
  // The browser tab too: never the name of the software behind it.
  await expect(page).toHaveTitle('Endpoints · Acme Webhooks');
  await expect(page.getByTestId('portal-logo')).toHaveAttribute('src', 'https://127.0.0.1:9/acme-logo.svg');
  expect((await (await response).allHeaders())['content-security-policy']).toContain(
    "img-src 'self' data: blob: https://127.0.0.1:9;",
  );
  const current = page.getByRole('link', { name: 'Endpoints', exact: true });
  await expect(current).toHaveAttribute('aria-current', 'page');
  expect(await current.evaluate((element) => getComputedStyle(element).borderBottomColor)).toBe('rgb(79, 70, 229)');

  // The endpoint's stats over the range the customer picks, from the rollups of its own app.
  await page.getByTestId('endpoint-row').getByRole('link').first().click();
  await expect(page.getByTestId('endpoint-stats-attempts')).toHaveText('3', { timeout: 20_000 });
  await expect(page).toHaveTitle('Endpoint · Acme Webhooks');
  await expect(page.getByTestId('endpoint-stats-success-rate')).toHaveText(/^100(\.0)? ?%$/);
  await expect(page.getByTestId('endpoint-stats-p50')).toHaveText(/\d+(\.\d+)? ?(ms|s)$/);
  await expect(page.getByTestId('endpoint-stats-p95')).toHaveText(/\d+(\.\d+)? ?(ms|s)$/);
  await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '24 h' }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByRole('button', { name: '24 h' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('endpoint-stats-attempts')).toHaveText('3');
  // The operator's settings of the endpoint (concurrency, retry policy) are not the customer's business.
  await expect(page.getByTestId('retry-policy')).toHaveCount(0);
  await screenshot(page, 'portal-endpoint-stats-1280');

  await context.close();
});

test('embedded by another site over plain http, the iframe says why the portal cannot show and opens it in a tab', async ({
  page,
  context,
}) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'Portal Cross Site', eventTypes: ['order.created'] });
  // localhost is another site than 127.0.0.1 (the port does not count, the host does): the portal
  // cookie, SameSite=Lax over http, is not sent to the framed portal.
  const embedding = await embeddingSite(await portalUrl(app.appId));
  const crossSiteOrigin = embedding.origin.replace('127.0.0.1', 'localhost');
  try {
    await api('PATCH', `/apps/${app.appId}`, { portalFrameAncestors: [crossSiteOrigin] });
    await page.goto(crossSiteOrigin);
    const frame = page.frameLocator('#portal');
    await expect(frame.getByTestId('portal-insecure-embedding')).toHaveText(
      'The webhooks portal cannot be shown inside this page',
    );
    await expect(frame.locator('body')).toContainText('SameSite');
    await screenshot(page, 'portal-embedded-over-http-1280');
    // Its link opens the portal in a tab of its own, where the cookie is first-party.
    const popup = context.waitForEvent('page');
    await frame.getByRole('link', { name: 'Open the webhooks portal in a new tab' }).click();
    const portal = await popup;
    await portal.waitForURL(`${env.baseUrl}/portal`);
    await expect(portal.getByTestId('portal-app-name')).toHaveText('Portal Cross Site');
  } finally {
    embedding.server.close();
  }
});

test("the dashboard sets the portal's branding, refuses a logo that is not https, and says embedding needs https", async ({
  page,
}) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'Portal Branding Form', eventTypes: ['order.created'] });
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/settings`);

  await page.getByLabel('Portal name').fill('Branded Hooks');
  await page.getByLabel('Logo URL').fill('http://cdn.example.com/logo.png');
  await page.getByLabel('Accent colour').fill('#0EA5E9');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(
    page.getByText('portalLogoUrl: "http://cdn.example.com/logo.png" is not a logo URL: must start with https://'),
  ).toBeVisible();
  expect((await api<{ portalName: string | null }>('GET', `/apps/${app.appId}`)).portalName).toBeNull();
  await page.getByLabel('Logo URL').fill('https://cdn.example.com/logo.png');
  await page.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Branding updated.')).toBeVisible();
  expect(await api('GET', `/apps/${app.appId}`)).toMatchObject({
    portalName: 'Branded Hooks',
    portalLogoUrl: 'https://cdn.example.com/logo.png',
    portalAccentColor: '#0ea5e9',
  });

  // Where the embedding origins are set: why an http site (or Hookline over http) cannot embed it.
  const note = page.getByTestId('portal-http-embedding-note');
  await expect(note).toContainText('Embedding in another site needs https');
  await expect(note).toContainText('SameSite=Lax');
  await expect(note).not.toHaveClass(/amber/);
  await page.getByLabel('Sites allowed to embed the portal').fill('http://shop.example:8080');
  await expect(note).toHaveClass(/amber/);
  await screenshot(page, 'portal-branding-settings-1280');
});

test("a success's attempt in the portal says in the customer's words that its response was not kept, and names no server setting or worker", async ({
  browser,
}) => {
  await setReceiverMode('ok');
  const app = await createApp({ name: 'Portal Internals', eventTypes: ['order.created'] });
  await sendMessages(1, { appId: app.appId });
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).length, { timeout: 20_000 })
    .toBe(1);
  const [delivery] = await listDeliveries(app.appId, 'state=succeeded');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openPortal(page, await portalUrl(app.appId));
  // A success's attempt: what the customer can understand, not how to configure the server or which
  // worker sent it.
  await page.goto(`${e2eEnv().baseUrl}/portal/deliveries/${delivery!.id}`);
  const attempt = page.getByTestId('attempt').first();
  await expect(attempt.getByLabel('Response body')).toContainText('not kept for successful attempts');
  await expect(page.locator('body')).not.toContainText('HOOKLINE_');
  await expect(page.locator('body')).not.toContainText('delivery-row');
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await context.close();
});

test("a customer in another time zone than the server's opens every portal page without a hydration error", async ({
  browser,
}) => {
  await setReceiverMode('ok');
  const app = await createApp({ name: 'Portal Far Away', eventTypes: ['order.created'] });
  await sendMessages(1, { appId: app.appId });
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).length, { timeout: 20_000 })
    .toBe(1);
  const [delivery] = await listDeliveries(app.appId, 'state=succeeded');
  // The server renders in its own zone (this process's, which started it); the browser is elsewhere,
  // half an hour off any whole-hour zone, so no server zone formats a time the same way.
  const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const timezoneId = serverZone === 'Asia/Kolkata' ? 'America/St_Johns' : 'Asia/Kolkata';
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught: ${error.message}`));
  await openPortal(page, await portalUrl(app.appId));
  for (const path of [
    '/portal',
    `/portal/endpoints/${app.endpointId}`,
    '/portal/event-types',
    '/portal/deliveries',
    `/portal/deliveries/${delivery!.id}`,
  ]) {
    await page.goto(`${e2eEnv().baseUrl}${path}`);
    await expect(page.getByText(/^Session ends /)).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(errors).toEqual([]);
  // And the header tells the session's end in the customer's zone, as formatTime does there.
  const sessions = await api<{ data: { expiresAt: string }[] }>('GET', `/apps/${app.appId}/portal-sessions`);
  const ends = new Date(sessions.data[0]!.expiresAt).toLocaleString('en-GB', {
    timeZone: timezoneId,
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  await expect(page.getByText(/^Session ends /)).toHaveText(`Session ends ${ends}`);
  await context.close();
});
