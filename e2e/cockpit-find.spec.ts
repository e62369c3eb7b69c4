// Issue 13, continued: find one event (filters, outcomes, saved filters), the first five minutes of a
// new app, and a delivery's page (timeline, copy as curl, side by side with the previous attempt).
import { expect, test } from '@playwright/test';
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

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

test.afterEach(async () => {
  await setReceiverMode('ok');
});

async function sendWithKey(appId: string, key: string, payload: Record<string, unknown>): Promise<string> {
  const env = e2eEnv();
  const response = await fetch(`${env.baseUrl}/api/v1/apps/${appId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ eventType: 'order.paid', payload }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function waitForState(appId: string, messageId: string, state: string) {
  await expect
    .poll(async () => (await listDeliveries(appId, `messageId=${messageId}`)).map((d) => d.state), { timeout: 45_000 })
    .toEqual([state]);
}

test('find one event: by idempotency key, payload field, outcome; filters saved by name', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Cockpit Find' });
  const delivered = await sendWithKey(app.appId, 'order-1001', { customer: { id: 'cus_ok' } });
  await waitForState(app.appId, delivered, 'succeeded');
  await setReceiverMode('fail');
  const dead = await sendWithKey(app.appId, 'order-1002', { customer: { id: 'cus_42' } });
  await waitForState(app.appId, dead, 'dead');
  await setReceiverMode('ok');

  await signIn(page);
  await page.goto(`${env.baseUrl}/messages?appId=${app.appId}`);
  const rows = page.getByTestId('message-row');
  await expect(rows).toHaveCount(2);
  // Each message says how its deliveries went.
  await expect(rows.filter({ hasText: delivered }).getByTestId('message-outcome')).toHaveText('delivered');
  await expect(rows.filter({ hasText: dead }).getByTestId('message-outcome')).toHaveText('1 dead');

  await page.getByLabel('Idempotency key').fill('order-1002');
  await page.getByLabel('Idempotency key').press('Enter');
  await expect(page).toHaveURL(/idempotencyKey=order-1002/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(dead);
  await page.getByLabel('Idempotency key').fill('');
  await page.getByLabel('Idempotency key').press('Enter');

  // A payload field, within a time range.
  await page.getByRole('button', { name: '1 h' }).click();
  await page.getByLabel('Payload field').fill('customer.id');
  await page.getByLabel('Payload field').press('Enter');
  await page.getByLabel('Payload value').fill('cus_42');
  await page.getByLabel('Payload value').press('Enter');
  await expect(page).toHaveURL(/payloadValue=cus_42/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(dead);

  // Save it by name; it is listed, survives a reload and brings the filter back.
  await page.getByRole('button', { name: 'Save this filter…' }).click();
  await page.getByLabel('Filter name').fill('Customer 42');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const saved = page.getByTestId('saved-filters');
  await expect(saved.getByRole('link', { name: 'Customer 42' })).toBeVisible();
  await expect(saved).toContainText('Kept in this browser only');
  await screenshot(page, 'cockpit-messages-find');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page, 'messages at 375 px');
  await screenshot(page, 'cockpit-messages-find-phone');
  await page.setViewportSize(DESKTOP);
  await page.goto(`${env.baseUrl}/messages?appId=${app.appId}`);
  await expect(rows).toHaveCount(2);
  await page.getByTestId('saved-filters').getByRole('link', { name: 'Customer 42' }).click();
  await expect(page).toHaveURL(/payloadPath=customer.id/);
  await expect(rows).toHaveCount(1);

  // The explorer finds the same event by message id (the webhook-id receivers saw) and by attempts.
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}`);
  // Typed only once the page is live (its rows are in): text typed while it hydrated was lost.
  await expect(page.getByTestId('delivery-row')).toHaveCount(2);
  await page.getByLabel('Message id').fill(dead);
  await page.getByLabel('Message id').press('Enter');
  await expect(page).toHaveURL(new RegExp(`messageId=${dead}`));
  await expect(page.getByTestId('delivery-row')).toHaveCount(1);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&minAttempts=2`);
  await expect(page.getByTestId('delivery-row')).toHaveCount(1);
  await expect(page.getByLabel('Min. attempts')).toHaveValue('2');
});

test('first five minutes: an app opens on its endpoints, empty states give the next step with snippets', async ({
  page,
}) => {
  const env = e2eEnv();
  const app = await api<{ id: string }>('POST', '/apps', { name: 'E2E Cockpit Fresh' });
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.id}`);
  await expect(page).toHaveURL(new RegExp(`/apps/${app.id}/endpoints$`));
  const guide = page.getByTestId('getting-started');
  await expect(guide.getByTestId('getting-started-step')).toHaveCount(3);
  // The snippets carry this app's id, ready to paste.
  await expect(guide.getByLabel('REST', { exact: true }).first()).toContainText(`/api/v1/apps/${app.id}/event-types`);
  await expect(guide.getByLabel('SQL', { exact: true })).toContainText(
    `SELECT hookline.send('${app.id}', 'invoice.paid'`,
  );
  await screenshot(page, 'cockpit-getting-started');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page, 'getting started at 375 px');
  await screenshot(page, 'cockpit-getting-started-phone');
  await page.setViewportSize(DESKTOP);

  // While the event types load, the new-endpoint dialog says so instead of "none yet".
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/v1/apps/${app.id}/event-types*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await page.getByRole('button', { name: 'New endpoint' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Loading event types…');
  await expect(dialog).not.toContainText('no event types yet');
  release();
  await expect(dialog).toContainText('This app has no event types yet.');
  await page.unroute(`**/api/v1/apps/${app.id}/event-types*`);
  await page.keyboard.press('Escape');

  // A step done is marked done.
  await api('POST', `/apps/${app.id}/event-types`, { name: 'invoice.paid' });
  await page.goto(`${env.baseUrl}/apps/${app.id}/endpoints`);
  await expect(guide.getByTestId('getting-started-step').first()).toContainText('done');

  // On a phone the explorer shows state, time and endpoint for each delivery.
  const shop = await createApp({ name: 'E2E Cockpit Phone' });
  await sendMessages(2, { appId: shop.appId });
  await page.setViewportSize(PHONE);
  await page.goto(`${env.baseUrl}/deliveries?appId=${shop.appId}`);
  const row = page.getByTestId('delivery-row').first();
  await expect(row.getByTestId('delivery-created')).toBeVisible();
  await expect(row.getByTestId('delivery-endpoint-phone')).toHaveText(shop.endpointUrl);
  await expect(row.getByText(/^(waiting|delivering|succeeded)$/)).toBeVisible();
  // The filters fold behind one button, so the first screen shows deliveries, not ten fields.
  await expect(row).toBeInViewport();
  await page.getByRole('button', { name: 'Filters' }).click();
  await expect(page.getByLabel('State')).toBeVisible();
  await page.getByRole('button', { name: 'Hide filters' }).click();
  await expectNoHorizontalOverflow(page, 'explorer at 375 px');
  await screenshot(page, 'cockpit-explorer-phone');
});

test('a delivery page: attempts on a timeline, copy as curl with signatures, side by side with the previous', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Cockpit Attempts' });
  await setReceiverMode('fail');
  const [messageId] = await sendMessages(1, { appId: app.appId, eventType: 'order.paid' });
  await waitForState(app.appId, messageId!, 'dead');
  const [delivery] = await listDeliveries(app.appId, `messageId=${messageId}`);

  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/deliveries/${delivery!.id}`);
  const timeline = page.getByTestId('attempts-timeline');
  await expect(timeline.getByRole('link')).toHaveText(['#1 500', '#2 500']);
  // The e2e retry schedule is "0,1s": the gap is the one-second backoff (with its jitter).
  await expect(timeline.getByTestId('timeline-gap')).toHaveText(/^\d+ (ms|s)$/);

  const newest = page.getByTestId('attempt').first();
  await newest.getByRole('button', { name: 'Show curl' }).click();
  const curl = newest.getByLabel('curl command');
  await expect(curl).toContainText(`curl -sS -X POST '${app.endpointUrl}'`);
  await expect(curl).toContainText(`-H 'webhook-id: ${messageId}'`);
  await expect(curl).toContainText("-H 'webhook-signature: v1,");
  await expect(curl).toContainText(`--data-binary '{"type":"order.paid"`);
  await newest.getByRole('button', { name: 'Compare with attempt 1' }).click();
  const comparison = newest.getByTestId('attempt-comparison');
  await expect(comparison.getByTestId('compare-attempt-1')).toContainText('receiver is down for the test');
  await expect(comparison.getByTestId('compare-attempt-2')).toContainText('receiver is down for the test');
  await screenshot(page, 'cockpit-delivery-attempts');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page, 'delivery page at 375 px');
  await screenshot(page, 'cockpit-delivery-attempts-phone');
});

test('a list filtered by an event type its picker does not offer says so in the picker', async ({ page }) => {
  // A link can name an event type the app's first 250 do not include (beyond them, or gone since):
  // the picker read "All event types" while the list was filtered by it.
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Unlisted Event Type' });
  await sendMessages(1, { appId: app.appId, eventType: 'order.created' });
  await signIn(page);
  await page.goto(`${env.baseUrl}/messages?appId=${app.appId}&eventType=order.refunded`);
  await expect(page.getByLabel('Event type')).toHaveValue('order.refunded');
  await expect(page.getByLabel('Event type').locator('option:checked')).toHaveText('order.refunded');
  await expect(page.getByTestId('message-row')).toHaveCount(0);
  // Choosing "All event types" lists the app's message again.
  await page.getByLabel('Event type').selectOption('');
  await expect(page.getByTestId('message-row')).toHaveCount(1);
});
