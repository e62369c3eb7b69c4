// Numbers that mean what they say (issue 23, items 5 to 9): the rate card, what the queue waits for,
// what breakdown links open and their colours, a replayed success kept in the log, and layout and paths.
import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import {
  api,
  createApp,
  listDeliveries,
  screenshot,
  sendMessages,
  setReceiverMode,
  signIn,
  statNumber,
} from './support/helpers';

async function waitForStates(appId: string, count: number, state: string) {
  await expect
    .poll(async () => (await listDeliveries(appId)).filter((delivery) => delivery.state === state).length, {
      timeout: 45_000,
      message: `${count} deliveries ${state}`,
    })
    .toBe(count);
}

test.afterEach(async () => {
  await setReceiverMode('ok');
});

test('the rate card divides by the span that holds attempts and says retries count', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('ok');
  const app = await createApp({ name: 'E2E Rate' });
  await sendMessages(30, { appId: app.appId });
  await waitForStates(app.appId, 30, 'succeeded');
  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=1h&appId=${app.appId}`);
  await expect.poll(() => statNumber(page, 'attempts-total')).toBe(30);
  // 30 attempts within a minute or two: at least 30 / 180 s, where the hour would give 0.008.
  expect(await statNumber(page, 'attempts-per-second')).toBeGreaterThanOrEqual(30 / 180);
  const card = page.getByTestId('attempts-per-second').locator('..');
  await expect(card).toContainText('Attempts / s');
  await expect(card).toContainText('retries count');
  await expect(card).toContainText('with attempts');
});

test('the queue says what waits for a worker and what waits for its endpoint, on the overview and the apps list', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Held' });
  // One failure each, then an hour's backoff: retrying, held by their retry time.
  await api('PATCH', `/apps/${app.appId}/endpoints/${app.endpointId}`, { retrySchedule: '0,1h' });
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId });
  await waitForStates(app.appId, 3, 'retrying');

  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${app.appId}`);
  await expect(page.getByTestId('queue-retrying')).toHaveText('3');
  await expect(page.getByTestId('waiting-for-retry-time')).toHaveText('3');
  await expect(page.getByTestId('waiting-for-worker')).toHaveText('0');

  // Disabled, they wait for the endpoint instead, whatever their retry time.
  await api('POST', `/apps/${app.appId}/endpoints/${app.endpointId}/disable`, { reason: 'held for the test' });
  await expect(page.getByTestId('waiting-for-endpoint-enabled')).toHaveText('3');
  await expect(page.getByTestId('waiting-for-retry-time')).toHaveText('0');
  await expect(page.getByTestId('waiting-for-circuit')).toHaveText('0');
  await screenshot(page, 'numbers-held-queue');

  // The apps list counts them now, not at the last once-a-minute sample, and says what holds them.
  await page.goto(`${env.baseUrl}/apps`);
  const row = page.getByTestId('app-row').filter({ hasText: app.appName });
  await expect(row.getByTestId('app-queued')).toHaveText('0');
  await expect(row.getByTestId('app-held')).toHaveText('3');
  await expect(row.getByTestId('app-held')).toHaveAttribute('title', /3 by a disabled endpoint/);
});

/** The fill of the errors chart's bars for one key. */
async function barColors(page: Page, chart: string): Promise<string[]> {
  return page
    .getByTestId(chart)
    .locator('.recharts-bar-rectangle path')
    .evaluateAll((paths) => [...new Set(paths.map((path) => path.getAttribute('fill') ?? ''))]);
}

/** The colour of the swatch beside a class or status, in rgb() as computed. */
async function swatchColor(page: Page, scope: string, attribute: string, value: string): Promise<string> {
  return page
    .getByTestId(scope)
    .locator(`[${attribute}="${value}"] [data-testid="outcome-swatch"]`)
    .first()
    .evaluate((element) => getComputedStyle(element).backgroundColor);
}

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

test('breakdowns say what they count and what their links open, in one colour per class everywhere', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Breakdown' });
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId });
  // Two attempts each (HOOKLINE_RETRY_SCHEDULE=0,1s): 6 failed attempts, 3 dead deliveries.
  await waitForStates(app.appId, 3, 'dead');

  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${app.appId}`);
  const classes = page.getByTestId('error-classes');
  await expect(classes.getByRole('row').filter({ hasText: 'http_5xx' })).toContainText('6');
  await expect(page.getByTestId('error-classes-counting')).toContainText('Attempts count every try');
  const link = classes.getByRole('link', { name: /latest is http_5xx/ });
  await expect(link).toHaveAttribute('title', /whose latest attempt failed with http_5xx/);

  // The bars, the share table and the explorer show http_5xx and 500 in the same colours.
  await expect(page.getByTestId('errors-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  const errorBars = await barColors(page, 'errors-chart');
  expect(errorBars).toHaveLength(1);
  const classColor = await swatchColor(page, 'error-classes', 'data-error-class', 'http_5xx');
  expect(hexToRgb(errorBars[0]!)).toBe(classColor);
  const statusBars = await barColors(page, 'status-codes-chart');
  const statusColor = await swatchColor(page, 'status-codes', 'data-status-code', '500');
  expect(statusBars.map(hexToRgb)).toContain(statusColor);

  await link.click();
  await expect(page).toHaveURL(/errorClass=http_5xx/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(3);
  expect(await swatchColor(page, 'deliveries-table', 'data-error-class', 'http_5xx')).toBe(classColor);
  expect(await swatchColor(page, 'deliveries-table', 'data-status-code', '500')).toBe(statusColor);
  // The class is a choice, not free text: a typo cannot silently match nothing.
  const select = page.getByLabel('Error class');
  await expect(select).toHaveValue('http_5xx');
  await select.selectOption('timeout');
  await expect(page).toHaveURL(/errorClass=timeout/);
  await expect(page.getByTestId('delivery-row')).toHaveCount(0);
  // No index serves an error class: the list searches back through time and says how far it got.
  await expect(page.getByTestId('search-progress')).toContainText(/Searched the whole range|Continue searching/);
});

test('replaying a delivered event asks first and keeps the earlier success in the log', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('ok');
  const app = await createApp({ name: 'E2E Replay Success' });
  await sendMessages(1, { appId: app.appId });
  await waitForStates(app.appId, 1, 'succeeded');
  const [delivery] = await listDeliveries(app.appId);

  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/deliveries/${delivery!.id}`);
  await expect(page.getByTestId('attempt')).toHaveCount(1);
  await page.getByRole('button', { name: 'Replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a delivered event again?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep it as it is' }).click();
  await expect(dialog).toBeHidden();
  expect((await listDeliveries(app.appId))[0]!.attemptCount).toBe(1);

  await page.getByRole('button', { name: 'Replay' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send it again' }).click();
  await expect.poll(async () => (await listDeliveries(app.appId))[0]!.attemptCount, { timeout: 20_000 }).toBe(2);
  await expect(page.getByTestId('delivery-state')).toContainText('succeeded', { timeout: 20_000 });
  // Both successes, newest first: the count and the log agree.
  await expect(page.getByTestId('attempt')).toHaveCount(2);
  await expect(page.getByTestId('attempt').nth(0)).toContainText('Attempt 2');
  await expect(page.getByTestId('attempt').nth(1)).toContainText('Attempt 1');
  await screenshot(page, 'numbers-replayed-success');
});

test('replaying a message or a selection that includes a delivered event asks first, before any request', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const env = e2eEnv();
  await setReceiverMode('ok');
  const app = await createApp({ name: 'E2E Replay Mixed' });
  const [deliveredMessage] = await sendMessages(1, { appId: app.appId });
  await waitForStates(app.appId, 1, 'succeeded');
  await setReceiverMode('fail');
  await sendMessages(1, { appId: app.appId });
  await waitForStates(app.appId, 1, 'dead');
  await setReceiverMode('ok');
  const attemptCounts = async () =>
    Object.fromEntries((await listDeliveries(app.appId)).map((delivery) => [delivery.state, delivery.attemptCount]));
  expect(await attemptCounts()).toEqual({ succeeded: 1, dead: 2 });
  // Every replay the page asks the server for: none may leave before the answer "yes".
  const replayRequests: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/replay')) {
      replayRequests.push(request.url());
    }
  });

  await signIn(page);
  // A message whose only delivery succeeded: "Replay to every endpoint" asks, and "no" sends nothing.
  await page.goto(`${env.baseUrl}/apps/${app.appId}/messages/${deliveredMessage}`);
  await page.getByRole('button', { name: 'Replay to every endpoint' }).click();
  const one = page.getByRole('dialog', { name: 'Send a delivered event again?' });
  await expect(one).toBeVisible();
  await one.getByRole('button', { name: 'Keep it as it is' }).click();
  await expect(one).toBeHidden();
  expect(replayRequests).toEqual([]);
  await page.getByRole('button', { name: 'Replay to every endpoint' }).click();
  await one.getByRole('button', { name: 'Send it again' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 1 delivery.' })).toBeVisible();
  expect(replayRequests).toHaveLength(1);
  await waitForStates(app.appId, 1, 'succeeded');
  await expect.poll(attemptCounts, { timeout: 20_000 }).toEqual({ succeeded: 2, dead: 2 });

  // The explorer's "Replay selected" with a delivered row among a dead one: asked, and counted.
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}`);
  const rows = page.getByTestId('delivery-row');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Select all shown deliveries').check();
  await page.getByTestId('replay-selected').click();
  const many = page.getByRole('dialog', { name: 'Send delivered events again?' });
  await expect(many).toBeVisible();
  await expect(many.getByTestId('replay-success-count')).toContainText('1 delivery of the 2 already succeeded.');
  await many.getByRole('button', { name: 'Keep it as it is' }).click();
  await expect(many).toBeHidden();
  expect(replayRequests).toHaveLength(1);
  expect(await attemptCounts()).toEqual({ succeeded: 2, dead: 2 });
  await page.getByTestId('replay-selected').click();
  await many.getByRole('button', { name: 'Replay 2 deliveries' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 2 of 2 selected deliveries' })).toBeVisible();
  expect(replayRequests).toHaveLength(2);
  await waitForStates(app.appId, 2, 'succeeded');
});

test('layout and paths: the deliveries table fits its card, day axes have dates, deep links survive sign-in, jobs name endpoints', async ({
  page,
}) => {
  const env = e2eEnv();
  // Every column at its widest, as in the demo: a long URL, a long event type, failures with a class
  // and a status, and a next try (an hour's backoff).
  const app = await createApp({
    name: 'E2E Layout',
    eventTypes: ['order.payment_captured'],
    endpointPath: '/hooks/acme-production/webhooks/orders/payment-events',
  });
  await api('PATCH', `/apps/${app.appId}/endpoints/${app.endpointId}`, { retrySchedule: '0,1h' });
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId, eventType: 'order.payment_captured' });
  await waitForStates(app.appId, 3, 'retrying');
  await setReceiverMode('ok');

  // A deep link opened signed out comes back after sign-in.
  const deepLink = `/apps/${app.appId}/jobs`;
  await page.goto(`${env.baseUrl}${deepLink}`);
  await page.waitForURL(/\/sign-in\?next=/);
  await page.getByLabel('Email').fill(env.adminEmail);
  await page.getByLabel('Password').fill(env.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === deepLink);

  // The jobs list names the endpoint by its URL.
  const since = new Date(Date.now() - 3_600_000).toISOString();
  await api('POST', `/apps/${app.appId}/endpoints/${app.endpointId}/recover`, { since });
  await page.reload();
  await expect(page.getByTestId('job-endpoint').first()).toHaveText(app.endpointUrl);

  // At 1440 px the deliveries table fits its card: nothing scrolls sideways, "Next try" included.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}`);
  await expect(page.getByTestId('delivery-row')).toHaveCount(3);
  const table = page.getByTestId('deliveries-table');
  const overflow = await table.evaluate((element) => {
    const box = element.parentElement!;
    return box.scrollWidth - box.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
  const card = await table.evaluate((element) => element.closest('.rounded-lg')!.getBoundingClientRect().right);
  const nextTry = await table.getByRole('columnheader', { name: 'Next try' }).boundingBox();
  expect(nextTry!.x + nextTry!.width).toBeLessThanOrEqual(card);
  await screenshot(page, 'numbers-deliveries-1440');

  // A day's axis names the day of each tick (the y axis's ticks are counts, without a colon).
  await page.goto(`${env.baseUrl}/overview?range=24h&appId=${app.appId}`);
  const ticks = page.getByTestId('throughput-chart').locator('.recharts-cartesian-axis-tick-value');
  await expect(ticks.filter({ hasText: ':' }).first()).toBeVisible();
  const times = (await ticks.allTextContents()).filter((tick) => tick.includes(':'));
  expect(times.length).toBeGreaterThanOrEqual(2);
  for (const tick of times) expect(tick).toMatch(/^\d{2} [A-Z][a-z]{2}, \d\d:\d\d$/);
});
