// Issue 13, the operator's cockpit: the overview agrees with itself, one vocabulary of delivery states,
// a waiting delivery says why, the apps list summarises each app.
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
  statNumber,
} from './support/helpers';

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

test.afterEach(async () => {
  await setReceiverMode('ok');
});

async function waitForStates(appId: string, count: number, state: string) {
  await expect
    .poll(async () => (await listDeliveries(appId)).filter((delivery) => delivery.state === state).length, {
      timeout: 45_000,
      message: `${count} deliveries ${state}`,
    })
    .toBe(count);
}

/** The legend entry of one queue series reads "<State> <latest value>". */
async function legendValue(page: Page, label: string): Promise<number> {
  const text = await page
    .getByTestId('queue-depth-chart')
    .locator('.recharts-legend-item-text')
    .filter({ hasText: new RegExp(`^${label} `) })
    .textContent();
  return Number((text ?? '').replace(/[^0-9]/g, ''));
}

test('the overview agrees with itself: queue chart ends at the cards, errors link to the explorer', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Cockpit Overview' });
  await sendMessages(3, { appId: app.appId, eventType: 'order.paid' });
  await waitForStates(app.appId, 3, 'succeeded');
  await setReceiverMode('fail');
  await sendMessages(5, { appId: app.appId, eventType: 'order.paid' });
  await waitForStates(app.appId, 5, 'dead');

  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${app.appId}`);
  await expect(page.getByTestId('queue-dead')).toHaveText('5');
  // Every queue series is named by its state, and its latest point is the card's number.
  for (const [label, testId] of [
    ['Waiting', 'queue-waiting'],
    ['Retrying', 'queue-retrying'],
    ['Delivering', 'queue-delivering'],
    ['Dead', 'queue-dead'],
  ] as const) {
    await expect.poll(() => legendValue(page, label)).toBe(await statNumber(page, testId));
  }
  // The card names the state the explorer filters by, and opens it.
  await page.getByTestId('queue-dead').getByRole('link').click();
  await expect(page).toHaveURL(/state=dead/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(5);
  await page.goBack();

  // Latency on a log scale, every tick a whole label in ms or s.
  const ticks = (
    await page.getByTestId('latency-chart').locator('.recharts-cartesian-axis-tick-value').allTextContents()
  ).filter((tick) => !/^\d\d:\d\d$/.test(tick));
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  for (const tick of ticks) expect(tick).toMatch(/^\d+(\.\d+)? (ms|s)$/);

  // Errors: a chart over time and shares; 5 failed attempts per delivery x2 attempts, all http_5xx.
  await expect(page.getByTestId('errors-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  const classes = page.getByTestId('error-classes');
  await expect(classes.getByRole('row').filter({ hasText: 'http_5xx' })).toContainText('100.0%');
  // 3 of 13 responses were 200, 10 were 500.
  const codes = page.getByTestId('status-codes');
  await expect(codes.getByRole('row').filter({ hasText: '500' })).toContainText('76.9%');
  await expect(codes.getByRole('row').filter({ hasText: '200' })).toContainText('23.1%');
  await screenshot(page, 'cockpit-overview');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page, 'overview at 375 px');
  await screenshot(page, 'cockpit-overview-phone');
  await page.setViewportSize(DESKTOP);

  await classes.getByRole('link', { name: /latest is http_5xx/ }).click();
  await expect(page).toHaveURL(/errorClass=http_5xx/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(5);
  await page.goBack();
  await codes.getByRole('link', { name: /latest is 500/ }).click();
  await expect(page).toHaveURL(/statusCode=500/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(5);
  await page.goBack();
  // Worst endpoints open the endpoint's page.
  await page.getByTestId('worst-endpoints').getByRole('link', { name: app.endpointUrl }).click();
  await expect(page).toHaveURL(new RegExp(`/apps/${app.appId}/endpoints/${app.endpointId}$`));

  // The apps list: endpoints, 24 h success rate (3 of 13 attempts) and the queue per app.
  await page.goto(`${env.baseUrl}/apps`);
  const row = page.getByTestId('app-row').filter({ hasText: app.appName });
  await expect(row.getByTestId('app-endpoints')).toHaveText('1');
  await expect(row.getByTestId('app-success-rate')).toHaveText('23.1%');
  await expect(row.getByTestId('app-queued')).toHaveText(/^(\d+|—)$/);
  await screenshot(page, 'cockpit-apps');
  await page.setViewportSize(PHONE);
  await expect(row.getByTestId('app-success-rate')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'apps at 375 px');
  await screenshot(page, 'cockpit-apps-phone');
  // Opening an app lands on its endpoints.
  await page.goto(`${env.baseUrl}/apps/${app.appId}`);
  await expect(page).toHaveURL(new RegExp(`/apps/${app.appId}/endpoints$`));
});

test('one vocabulary: filters, badges, the replay dialog and recover name the same states and the same failed set', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Cockpit Vocabulary' });
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId, eventType: 'order.paid' });
  await waitForStates(app.appId, 3, 'dead');
  await setReceiverMode('ok');

  await signIn(page);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}`);
  const options = await page.getByLabel('State').locator('option').allTextContents();
  expect(options).toEqual([
    'All states',
    'failed (retrying or dead)',
    'waiting',
    'retrying',
    'delivering',
    'succeeded',
    'dead',
    'cancelled',
  ]);
  await page.getByLabel('State').selectOption('failed');
  await expect(page).toHaveURL(/state=failed/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(3);
  // Without a state the replay acts on the failed ones, and says so.
  await page.getByLabel('State').selectOption('');
  await page.getByTestId('replay-matching').click();
  await expect(page.getByTestId('replay-matching-count')).toContainText('3 deliveries (retrying or dead) match');
  await screenshot(page, 'cockpit-replay-failed-dialog');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Recover names the same set.
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${app.endpointId}`);
  await page.getByRole('button', { name: 'Recover…' }).click();
  await expect(page.getByRole('dialog')).toContainText('retrying or dead');

  // A waiting delivery says why: the endpoint is disabled, with its reason.
  await api('POST', `/apps/${app.appId}/endpoints/${app.endpointId}/disable`, { reason: 'the customer is migrating' });
  const [dead] = await listDeliveries(app.appId, 'state=dead');
  await api('POST', `/apps/${app.appId}/deliveries/${dead!.id}/replay`, {});
  await page.goto(`${env.baseUrl}/apps/${app.appId}/deliveries/${dead!.id}`);
  await expect(page.getByTestId('delivery-state')).toHaveText('retrying');
  await expect(page.getByTestId('delivery-wait')).toContainText('Endpoint disabled because the customer is migrating');
  await expect(page.getByTestId('delivery-wait')).toContainText('attempt 3');
  await screenshot(page, 'cockpit-delivery-waiting');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page, 'waiting delivery at 375 px');
  await screenshot(page, 'cockpit-delivery-waiting-phone');
  // The explorer's badge is the filter's word.
  await page.setViewportSize(DESKTOP);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&state=retrying`);
  await expect(page.getByTestId('delivery-row')).toHaveCount(1);
  await expect(page.getByTestId('delivery-row')).toContainText('retrying');
  await api('POST', `/apps/${app.appId}/endpoints/${app.endpointId}/enable`, {});
});
