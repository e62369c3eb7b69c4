import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, listDeliveries, screenshot, setReceiverMode, signIn } from './support/helpers';
import { XSS_RESPONSE_BODY } from './support/receiver';

const PAYLOAD_MARKUP = '<img src=x onerror="window.__hooklineXss=3"><script>window.__hooklineXss=4</script>';

test('markup in event data and in a receiver response renders as text and runs nothing', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('xss');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    const message = await api<{ id: string }>('POST', `/apps/${env.appId}/messages`, {
      eventType: 'order.created',
      payload: { note: PAYLOAD_MARKUP },
    });
    let deliveryId = '';
    await expect
      .poll(async () => {
        const detail = await api<{ deliveries: { id: string; state: string }[] }>(
          'GET',
          `/apps/${env.appId}/messages/${message.id}`,
        );
        deliveryId = detail.deliveries[0]?.id ?? '';
        return detail.deliveries[0]?.state;
      })
      .toBe('dead');

    await signIn(page);
    await page.goto(`${env.baseUrl}/apps/${env.appId}/deliveries/${deliveryId}`);
    await expect(page.getByLabel('Response body').first()).toHaveText(XSS_RESPONSE_BODY);
    await expect(page.getByLabel('Payload')).toContainText(PAYLOAD_MARKUP.replaceAll('"', '\\"'));
    await expect(page.getByLabel('Response headers').first()).toContainText('<b>bold</b>');
    // Shown as characters, never parsed into elements.
    await expect(page.locator('main img, main script, main b')).toHaveCount(0);

    await page.goto(`${env.baseUrl}/apps/${env.appId}/messages/${message.id}`);
    await expect(page.getByLabel('Payload')).toContainText('<img src=x');
    await expect(page.locator('main img, main script')).toHaveCount(0);
    await screenshot(page, 'message');

    expect(await page.evaluate(() => (window as { __hooklineXss?: number }).__hooklineXss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  } finally {
    await setReceiverMode('ok');
  }
});

test('a success is shown as the final attempt from its delivery row, and says its response was not kept', async ({
  page,
}) => {
  const env = e2eEnv();
  const message = await api<{ id: string }>('POST', `/apps/${env.appId}/messages`, {
    eventType: 'order.created',
    payload: { note: 'kept on the delivery' },
  });
  let deliveryId = '';
  await expect
    .poll(async () => {
      const detail = await api<{ deliveries: { id: string; state: string }[] }>(
        'GET',
        `/apps/${env.appId}/messages/${message.id}`,
      );
      deliveryId = detail.deliveries[0]?.id ?? '';
      return detail.deliveries[0]?.state;
    })
    .toBe('succeeded');
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${env.appId}/deliveries/${deliveryId}`);
  const attempt = page.getByTestId('attempt').first();
  await expect(attempt).toContainText('succeeded');
  await expect(attempt).toContainText('200');
  await expect(attempt.getByLabel('Response body')).toContainText('not kept for successes');
  await expect(attempt.getByLabel('Request headers')).toContainText(`webhook-id: ${message.id}`);
  await expect(attempt.getByLabel('Request headers')).toContainText('webhook-signature: v1,');
});

// Markup in every field a user or an integration can store, and in what a receiver answers: an <img>
// whose onerror sets a flag, a <script> that first closes any script the data might be inlined in (the
// RSC payload of a server-rendered page), an <svg onload>. Each names its field, so a failure says which
// field got through; data-hlxss marks any element the markup would leave behind.
const markup = (field: string) =>
  `"'></script><img src=x data-hlxss onerror="window.__hlXss='${field}'"><script data-hlxss>window.__hlXss='${field}'</script><svg data-hlxss onload="window.__hlXss='${field}'"></svg>`;

/** The fields whose markup the page shows as text, by name (the `field` of `markup`). */
async function fieldsShown(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...new Set([...text.matchAll(/__hlXss='([^']+)'/g)].map((match) => match[1]!))].sort();
}

interface Visit {
  path: string;
  /** Fields the page must show as text: proof the data reached the page, so no injection is not vacuous. */
  shows: string[];
  /** A client-only view to open first (a dialog, a tab), rendered from data the server HTML never held. */
  open?: (page: Page) => Promise<void>;
}

async function expectInertEverywhere(page: Page, visits: Visit[]): Promise<void> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // An injected inline script or handler is blocked by the Content-Security-Policy, which would hide it
  // from the flag: the browser still reports the attempt, and that counts as a failure too.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const record = window as unknown as { __hlViolations?: string[] };
      (record.__hlViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  for (const visit of visits) {
    const response = await page.goto(`${e2eEnv().baseUrl}${visit.path}`);
    expect(response?.status(), visit.path).toBe(200);
    await visit.open?.(page);
    await expect.poll(() => fieldsShown(page), { message: visit.path }).toEqual(expect.arrayContaining(visit.shows));
    await page.waitForLoadState('networkidle').catch(() => {});
    const state = await page.evaluate(() => {
      const record = window as unknown as { __hlXss?: string; __hlViolations?: string[] };
      return {
        flag: record.__hlXss ?? null,
        violations: record.__hlViolations ?? [],
        injected: [...document.querySelectorAll('[data-hlxss], img[src="x"]')].map((element) => element.outerHTML),
      };
    });
    expect(state, visit.path).toEqual({ flag: null, violations: [], injected: [] });
  }
  expect(dialogs).toEqual([]);
}

test('markup stored in every field renders as text on every dashboard and portal page, and runs nothing', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const env = e2eEnv();
  const app = await api<{ id: string }>('POST', '/apps', { name: markup('app name') });
  const base = `/apps/${app.id}`;
  // The portal's branding: the name is free text, shown in every portal page's header; the logo URL and
  // colour end up in attributes, so markup there is refused outright (by the API and a database CHECK).
  await api('PATCH', base, {
    portalName: markup('portal name'),
    portalLogoUrl: 'https://127.0.0.1:9/logo.svg?x=1',
    portalAccentColor: '#4f46e5',
  });
  for (const body of [
    { portalLogoUrl: `https://127.0.0.1:9/${markup('logo url')}` },
    { portalLogoUrl: 'javascript:window.__hlXss="logo url"' },
    { portalLogoUrl: 'data:image/svg+xml,<svg onload=alert(1)>' },
    { portalAccentColor: `#4f46e5;background:url(javascript:window.__hlXss='accent')` },
  ]) {
    await expect(api('PATCH', base, body), JSON.stringify(body)).rejects.toThrow(/answered 422/);
  }
  await api('POST', `${base}/event-types`, {
    name: 'xss.probe',
    description: markup('event type description'),
    schema: {
      type: 'object',
      title: markup('schema title'),
      description: markup('schema description'),
      properties: {
        note: { type: 'string', description: markup('property description'), examples: [markup('schema example')] },
      },
    },
  });
  const endpoint = await api<{ id: string }>('POST', `${base}/endpoints`, {
    // A URL may hold no space (REST refuses it, as hookline.http_post does): the same markup with
    // slashes between attributes, which HTML accepts as separators.
    url: `${env.receiverUrl}/hooks/xss?q=${markup('endpoint-url').replaceAll(' ', '/')}`,
    description: markup('endpoint description'),
    headers: { 'X-Note': markup('header value') },
  });
  const disabled = await api<{ id: string }>('POST', `${base}/endpoints`, {
    url: `${env.receiverUrl}/hooks/xss-disabled`,
    description: markup('disabled endpoint description'),
  });
  await api('POST', '/api-keys', { name: markup('api key name'), appId: app.id });
  await api('POST', `${base}/alert-rules`, {
    kind: 'dead_per_hour_above',
    threshold: 1_000_000,
    description: markup('alert rule description'),
  });
  const operational = await api<{ id: string }>('POST', '/operational-endpoints', {
    url: `${env.receiverUrl}/hooks/xss-operations`,
    description: markup('operational endpoint description'),
    scopeAppId: app.id,
  });

  // Both endpoints fail (the receiver answers markup); the second is then disabled with a reason, which
  // opens an issue titled with it.
  await setReceiverMode('xss');
  let messageId = '';
  let deliveryId = '';
  try {
    for (let i = 0; i < 2; i++) {
      messageId = (
        await api<{ id: string }>('POST', `${base}/messages`, {
          eventType: 'xss.probe',
          payload: { note: markup('payload value'), [markup('payload key')]: i },
        })
      ).id;
    }
    await expect
      .poll(async () => {
        const dead = await listDeliveries(app.id, 'state=dead');
        deliveryId = dead.find((row) => row.messageId === messageId && row.endpointId === endpoint.id)?.id ?? '';
        return dead.length;
      })
      .toBe(4);
  } finally {
    await setReceiverMode('ok');
  }
  await api('POST', `${base}/endpoints/${disabled.id}/disable`, { reason: markup('disabled reason') });
  const issues = await api<{ data: { id: string; title: string }[] }>('GET', `/issues?appId=${app.id}`);
  const issue = issues.data.find((row) => row.title.includes("'disabled reason'"));
  expect(issue, JSON.stringify(issues.data)).toBeDefined();

  try {
    await signIn(page);
    await expectInertEverywhere(page, [
      { path: '/overview', shows: ['app name'] },
      { path: '/apps', shows: ['app name'] },
      {
        path: `${base}/endpoints`,
        shows: ['app name', 'disabled endpoint description', 'disabled reason', 'endpoint description'],
      },
      { path: `${base}/endpoints/${endpoint.id}`, shows: ['app name', 'endpoint description'] },
      {
        path: `${base}/endpoints/${endpoint.id}`,
        shows: ['app name', 'endpoint description'],
        open: (p) => p.getByRole('button', { name: 'Edit' }).click(),
      },
      { path: `${base}/endpoints/${disabled.id}`, shows: ['disabled endpoint description', 'disabled reason'] },
      { path: `${base}/event-types`, shows: ['event type description'] },
      { path: `${base}/jobs`, shows: ['app name'] },
      { path: `${base}/settings`, shows: ['app name'] },
      { path: `${base}/messages/${messageId}`, shows: ['payload key', 'payload value'] },
      { path: `${base}/deliveries/${deliveryId}`, shows: ['app name', 'header value', 'payload key', 'payload value'] },
      { path: `/messages?appId=${app.id}`, shows: ['app name', 'payload value'] },
      { path: `/deliveries?appId=${app.id}`, shows: ['app name'] },
      { path: '/endpoints', shows: ['app name'] },
      { path: '/api-keys', shows: ['api key name'] },
      { path: '/issues', shows: ['app name'] },
      { path: `/issues/${issue!.id}`, shows: ['disabled reason'] },
      { path: '/operations', shows: ['app name', 'operational endpoint description'] },
    ]);

    const { url } = await api<{ url: string }>('POST', `${base}/portal-sessions`, {});
    const portalContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const portal = await portalContext.newPage();
    await portal.goto(url);
    await portal.waitForURL(`${env.baseUrl}/portal`);
    await expectInertEverywhere(portal, [
      { path: '/portal', shows: ['portal name', 'disabled endpoint description', 'endpoint description'] },
      { path: `/portal/endpoints/${endpoint.id}`, shows: ['portal name', 'endpoint description'] },
      { path: `/portal/endpoints/${disabled.id}`, shows: ['disabled endpoint description', 'disabled reason'] },
      {
        path: '/portal/event-types',
        shows: [
          'event type description',
          'property description',
          'schema description',
          'schema example',
          'schema title',
        ],
      },
      { path: `/portal/deliveries?endpointId=${endpoint.id}`, shows: ['portal name'] },
      { path: `/portal/deliveries/${deliveryId}`, shows: ['header value', 'payload key', 'payload value'] },
    ]);
    await portalContext.close();
  } finally {
    await api('DELETE', `/operational-endpoints/${operational.id}`);
  }
});
