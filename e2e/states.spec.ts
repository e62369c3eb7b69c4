// Loading, empty and error states. A page's loading state is held on screen by pausing the real
// server's answer to its list request in the browser (it is then let through unchanged); the empty and
// error states come from a new app with nothing in it, ids that do not exist and a filter the API refuses.
import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, expectNoHorizontalOverflow, screenshot, signIn } from './support/helpers';

/** Holds the browser's requests to `pathname` until the returned function is called. */
async function holdRequests(page: Page, pathname: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const matches = (url: URL) => url.pathname === pathname;
  await page.route(matches, async (route) => {
    await gate;
    await route.continue().catch(() => {}); // the page may have moved on meanwhile
  });
  return async () => {
    release();
    await page.unroute(matches);
  };
}

test('each page of a new, empty app shows a loading state, then says it is empty', async ({ page }) => {
  const env = e2eEnv();
  const app = await api<{ id: string }>('POST', '/apps', { name: 'E2E Empty Shop' });
  const appApi = `/api/v1/apps/${app.id}`;
  const screens = [
    {
      name: 'overview',
      path: `/overview?range=15m&appId=${app.id}`,
      request: '/api/v1/stats',
      loading: 'Loading stats…',
      empty: [
        'No attempts in this range',
        'No latency measured in this range',
        'No failed attempts in this range',
        'No responses in this range',
        'No endpoint failed in this range',
      ],
    },
    {
      name: 'endpoints',
      path: `/apps/${app.id}/endpoints`,
      request: `${appApi}/endpoints`,
      loading: 'Loading endpoints…',
      empty: ['No endpoints yet'],
    },
    {
      name: 'event-types',
      path: `/apps/${app.id}/event-types`,
      request: `${appApi}/event-types`,
      loading: 'Loading event types…',
      empty: ['No event types'],
    },
    {
      name: 'messages',
      path: `/messages?appId=${app.id}`,
      request: `${appApi}/messages`,
      loading: 'Loading messages…',
      empty: ['No messages match'],
    },
    {
      name: 'deliveries',
      path: `/deliveries?appId=${app.id}`,
      request: `${appApi}/deliveries`,
      loading: 'Loading deliveries…',
      empty: ['No deliveries match'],
    },
  ];

  await signIn(page);
  for (const screen of screens) {
    const release = await holdRequests(page, screen.request);
    await page.goto(`${env.baseUrl}${screen.path}`);
    const loading = page.getByRole('status').filter({ hasText: screen.loading });
    await expect(loading, `${screen.name} shows that it is loading`).toBeVisible();
    for (const text of screen.empty) await expect(page.getByText(text, { exact: true })).toBeHidden();
    await release();
    for (const text of screen.empty) {
      await expect(page.getByText(text, { exact: true }), `${screen.name} says "${text}"`).toBeVisible();
    }
    await expect(loading).toBeHidden();
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await screenshot(page, `state-empty-${screen.name}`);
  }
});

test('pages say what went wrong when the server refuses, and recover when the cause goes away', async ({ page }) => {
  const env = e2eEnv();
  const missingApp = 'app_does_not_exist';
  const app = `/apps/${env.appId}`;
  const screens = [
    { name: 'delivery', path: `${app}/deliveries/dlv_does_not_exist` },
    { name: 'message', path: `${app}/messages/msg_does_not_exist` },
    { name: 'endpoint', path: `${app}/endpoints/ep_does_not_exist` },
    { name: 'endpoints', path: `/apps/${missingApp}/endpoints` },
    { name: 'event-types', path: `/apps/${missingApp}/event-types` },
    { name: 'app-settings', path: `/apps/${missingApp}/settings` },
    { name: 'overview', path: `/overview?appId=${missingApp}` },
    { name: 'messages', path: `/messages?appId=${missingApp}` },
    { name: 'deliveries', path: `/deliveries?appId=${missingApp}` },
  ];
  await signIn(page);
  for (const screen of screens) {
    await page.goto(`${env.baseUrl}${screen.path}`);
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert, `${screen.name} shows one error`).toHaveCount(1);
    await expect(alert, `${screen.name} explains the error`).toContainText('not_found');
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
  }
  // The error box wraps a long message and id on a phone (one page stands for all: they share it).
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${env.baseUrl}${screens[0]!.path}`);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not_found');
  await expectNoHorizontalOverflow(page, 'an error at 375 px');
  await screenshot(page, 'state-error-phone');

  // A filter the API refuses names the problem; clearing the filter recovers without a reload.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${env.baseUrl}/deliveries?appId=${env.appId}&statusCode=abc`);
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('invalid_query');
  // Named once: the API's message and its field details are not both printed when they say the same.
  await expect(alert).toContainText(/statusCode/);
  expect((await alert.textContent())!.match(/statusCode/g)).toHaveLength(1);
  await expect(page.getByLabel('Status code')).toHaveValue('abc');
  await screenshot(page, 'state-error-filter');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/statusCode/);
  await expect(alert).toHaveCount(0);
  await expect(page.getByLabel('Status code')).toHaveValue('');
});
