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

test('an app with more endpoints than a page lists every one, and the explorer names one beyond its first 250', async ({
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
  await expect(page.getByLabel('Endpoint')).toHaveValue(app.endpointId);
  await expect(page.getByLabel('Endpoint').locator('option:checked')).toHaveText(app.endpointUrl);
});
