import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, createApp, screenshot, setReceiverMode, signIn } from './support/helpers';

test('create an endpoint, send it a test event, rotate its secret', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('ok');
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${env.appId}/endpoints`);
  await expect(page.getByTestId('endpoint-row').first()).toBeVisible();
  await screenshot(page, 'endpoints');

  await page.getByRole('button', { name: 'New endpoint' }).click();
  const url = `${env.receiverUrl}/hooks/created-in-e2e`;
  await page.getByLabel('URL').fill(url);
  await page.getByLabel('Description').fill('Made by the e2e test');
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const firstSecret = (await page.getByTestId('new-endpoint-secret').textContent())!;
  expect(firstSecret).toMatch(/^whsec_/);
  await page.getByRole('link', { name: 'Open endpoint' }).click();
  await expect(page.getByTestId('endpoint-url')).toHaveText(url);

  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('dialog')).toContainText('Sent message');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('delivery-row').first()).toContainText('succeeded', { timeout: 20_000 });

  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByTestId('confirm-rotate').click();
  const rotated = (await page.getByTestId('rotated-secret').textContent())!;
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(firstSecret);
  await page.getByRole('button', { name: 'Done' }).click();

  // During the grace period both secrets sign; the old one shows when it stops.
  await page.getByRole('button', { name: 'Show secret' }).click();
  const secrets = page.getByTestId('endpoint-secrets');
  await expect(secrets).toContainText(rotated);
  await expect(secrets).toContainText(firstSecret);
  await expect(secrets).toContainText('stops signing');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByLabel('Reason (shown on the endpoint)').fill('Receiver maintenance');
  await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('Receiver maintenance').first()).toBeVisible();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();
  await screenshot(page, 'endpoint');
});

test('an app with more endpoints than a page lists every one, and the explorer names and finds one beyond its first 250', async ({
  page,
}) => {
  const env = e2eEnv();
  // 251 endpoints: pages of 100 (ENDPOINTS_PAGE_SIZE), and one more than the first page of 250 that
  // pickers read. A single page of 250 used to be all the list showed, with nothing said about the rest.
  const app = await createApp({ name: 'Many endpoints' });
  for (let i = 1; i <= 250; i += 1) {
    await api('POST', `/apps/${app.appId}/endpoints`, { url: `${env.receiverUrl}/hooks/many-${i}` });
  }
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints`);
  await expect(page.getByTestId('endpoint-row')).toHaveCount(100);
  await page.getByTestId('endpoints-load-more').click();
  await expect(page.getByTestId('endpoint-row')).toHaveCount(200);
  await page.getByTestId('endpoints-load-more').click();
  await expect(page.getByTestId('endpoint-row')).toHaveCount(251);
  await expect(page.getByTestId('endpoints-load-more')).toHaveCount(0);
  const urls = await page.getByTestId('endpoint-row').locator('a').allTextContents();
  expect(new Set(urls).size).toBe(251);
  expect(urls).toContain(app.endpointUrl);

  // The first endpoint, the oldest, is not among the 250 newest the explorer's picker lists; filtered by
  // it, the picker still says which endpoint (it read "All endpoints").
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&endpointId=${app.endpointId}`);
  const picker = page.getByLabel('Endpoint', { exact: true });
  await expect(picker).toHaveValue(app.endpointId);
  await expect(picker.locator('option:checked')).toHaveText(app.endpointUrl);
  // ...and finds it by typing, once it is no longer the filter.
  await picker.selectOption('');
  await expect(picker.locator(`option[value="${app.endpointId}"]`)).toHaveCount(0);
  await page.getByLabel('Find an endpoint').fill(app.endpointUrl);
  await picker.selectOption(app.endpointId);
  await expect(page).toHaveURL(new RegExp(`endpointId=${app.endpointId}`));
});

test('an app with more event types than a page: the endpoint form and the test event reach every one', async ({
  page,
}) => {
  const env = e2eEnv();
  // 260 event types: pages of 100 (EVENT_TYPES_PAGE_SIZE), and 10 older than the first 250, which was
  // all the form and the test-event dialog offered (a subscription to one of them was invisible).
  const names = Array.from({ length: 260 }, (_, i) => `bulk.type-${String(i + 1).padStart(3, '0')}`);
  const app = await createApp({ name: 'Many event types', eventTypes: names });
  await api('PATCH', `/apps/${app.appId}/endpoints/${app.endpointId}`, { eventTypes: ['bulk.type-001'] });
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${app.endpointId}`);

  await page.getByRole('button', { name: 'Edit' }).click();
  const checklist = page.getByTestId('event-type-checklist');
  // The subscription beyond the pages loaded is shown, checked, ahead of the newest 100.
  await expect(checklist.getByLabel('bulk.type-001')).toBeChecked();
  await expect(checklist.getByRole('checkbox')).toHaveCount(101);
  await checklist.getByTestId('event-types-load-more').click();
  await expect(checklist.getByRole('checkbox')).toHaveCount(201);
  // A name beyond the first 250, found by typing.
  await page.getByLabel('Filter event types').fill('type-002');
  await expect(checklist.getByLabel('bulk.type-002')).toBeVisible();
  await checklist.getByLabel('bulk.type-002').check();
  await page.getByLabel('Filter event types').fill('no-such-type');
  await expect(checklist).toContainText("No event type's name contains “no-such-type”.");
  // What is checked stays shown (and saved) whatever the filter.
  await expect(checklist.getByLabel('bulk.type-002')).toBeChecked();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const saved = await api<{ eventTypes: string[] }>('GET', `/apps/${app.appId}/endpoints/${app.endpointId}`);
  expect(saved.eventTypes.sort()).toEqual(['bulk.type-001', 'bulk.type-002']);

  // The test event: an event type beyond the first 250, offered once its name is typed.
  await page.getByRole('button', { name: 'Send test event' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Event type').fill('type-003');
  await expect(page.getByTestId('test-event-types').locator('option[value="bulk.type-003"]')).toHaveCount(1);
  await dialog.getByLabel('Event type').fill('bulk.type-003');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toContainText('Sent message');
  const messageId = (await dialog.locator('span.font-mono').textContent())!;
  const message = await api<{ eventType: string }>('GET', `/apps/${app.appId}/messages/${messageId}`);
  expect(message.eventType).toBe('bulk.type-003');

  // The messages page's filter finds that type by typing: the first 250 it lists end at bulk.type-011.
  await page.goto(`${env.baseUrl}/messages?appId=${app.appId}`);
  const picker = page.getByLabel('Event type', { exact: true });
  await expect(picker.locator('option[value="bulk.type-003"]')).toHaveCount(0);
  await page.getByLabel('Find an event type').fill('type-003');
  await picker.selectOption('bulk.type-003');
  await expect(page).toHaveURL(/eventType=bulk\.type-003/);
  await expect(page.getByTestId('message-row')).toHaveCount(1);
});
