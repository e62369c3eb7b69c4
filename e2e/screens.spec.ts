// Every main page, at desktop width and at phone width (375 px): it renders its data, the page body
// never scrolls sideways, and a full-page screenshot of each lands in test-results/screenshots (and in
// the HTML report), so a reviewer can look at the whole dashboard without running it.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, expectNoHorizontalOverflow, screenshot, sendMessages, setReceiverMode, signIn } from './support/helpers';

interface Screen {
  name: string;
  path: string;
  /** Something that shows only once the page has its data. */
  ready: (page: Page) => Locator;
}

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

test('every page renders its data at desktop and at phone width, without sideways scrolling', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  await setReceiverMode('ok');
  const [messageId] = await sendMessages(1, { payload: { note: 'for the screenshots' } });
  let deliveryId = '';
  await expect
    .poll(async () => {
      const message = await api<{ deliveries: { id: string; state: string }[] }>(
        'GET',
        `/apps/${env.appId}/messages/${messageId}`,
      );
      deliveryId = message.deliveries[0]?.id ?? '';
      return message.deliveries.length > 0 && message.deliveries.every((d) => d.state === 'succeeded');
    })
    .toBe(true);

  const app = `/apps/${env.appId}`;
  const screens: Screen[] = [
    {
      name: 'overview',
      path: `/overview?range=1h&appId=${env.appId}`,
      ready: (p) => p.getByTestId('status-codes'),
    },
    { name: 'apps', path: '/apps', ready: (p) => p.getByRole('link', { name: env.appName, exact: true }) },
    {
      name: 'event-types',
      path: `${app}/event-types`,
      ready: (p) => p.getByRole('cell', { name: 'order.paid', exact: true }),
    },
    // The main menu's Endpoints: a list of apps to choose from (or straight to the only app's endpoints).
    {
      name: 'endpoints-choose-app',
      path: '/endpoints',
      ready: (p) => p.getByRole('link', { name: env.appName }).or(p.getByTestId('endpoint-row')).first(),
    },
    { name: 'endpoints', path: `${app}/endpoints`, ready: (p) => p.getByTestId('endpoint-row').first() },
    {
      name: 'endpoint',
      path: `${app}/endpoints/${env.endpointId}`,
      ready: (p) => p.getByTestId('delivery-row').first(),
    },
    { name: 'messages', path: `/messages?appId=${env.appId}`, ready: (p) => p.getByRole('link', { name: messageId }) },
    { name: 'message', path: `${app}/messages/${messageId}`, ready: (p) => p.getByTestId('delivery-row').first() },
    { name: 'deliveries', path: `/deliveries?appId=${env.appId}`, ready: (p) => p.getByTestId('delivery-row').first() },
    { name: 'delivery', path: `${app}/deliveries/${deliveryId}`, ready: (p) => p.getByTestId('attempt').first() },
    { name: 'api-keys', path: '/api-keys', ready: (p) => p.getByTestId('api-key-row').first() },
  ];

  await signIn(page);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const suffix = viewport === PHONE ? '-phone' : '';
    for (const screen of screens) {
      await page.goto(`${env.baseUrl}${screen.path}`);
      await expect(screen.ready(page), `${screen.name} shows its data`).toBeVisible();
      // (Next.js keeps an empty route announcer with role=alert outside <main>.)
      await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
      await expectNoHorizontalOverflow(page, `${screen.name} at ${viewport.width} px`);
      await screenshot(page, `page-${screen.name}${suffix}`);
    }
  }

  // On a phone the navigation folds behind "Menu" and still reaches every section.
  await page.getByRole('button', { name: 'Menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeVisible();
  await expectNoHorizontalOverflow(page, 'open menu at 375 px');
  await screenshot(page, 'page-menu-phone');
  await nav.getByRole('link', { name: 'Deliveries' }).click();
  await expect(page).toHaveURL(/\/deliveries/);
  await expect(nav).toBeHidden();

  // Signed out: the sign-in page, both widths. Off the live page first: once its cookie is gone, its
  // next poll is refused and it sends itself to the sign-in page, racing the navigation below.
  await page.goto('about:blank');
  await page.context().clearCookies();
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto(`${env.baseUrl}/sign-in`);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expectNoHorizontalOverflow(page, `sign-in at ${viewport.width} px`);
    await screenshot(page, `page-sign-in${viewport === PHONE ? '-phone' : ''}`);
  }
});
