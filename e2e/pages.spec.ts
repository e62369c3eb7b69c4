import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, createApp, screenshot, signIn } from './support/helpers';

test('apps, event types and messages pages load, and an app can be created and renamed', async ({ page }) => {
  const env = e2eEnv();
  await signIn(page);

  await page.goto(`${env.baseUrl}/apps`);
  await expect(page.getByRole('link', { name: env.appName })).toBeVisible();
  await page.getByRole('button', { name: 'New app' }).click();
  await page.getByLabel('Name').fill('E2E Second App');
  await page.getByRole('button', { name: 'Create app' }).click();
  await expect(page.getByRole('link', { name: 'E2E Second App' })).toBeVisible();
  await screenshot(page, 'apps');

  await page.getByRole('link', { name: 'E2E Second App' }).click();
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('E2E Second App (renamed)');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  await page.goto(`${env.baseUrl}/apps/${env.appId}/event-types`);
  await expect(page.getByRole('cell', { name: 'order.created', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'New event type' }).click();
  await page.getByLabel('Name').fill('order.refunded');
  await page.getByLabel('Description').fill('A refund went through');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  const refunded = page.getByRole('row').filter({ hasText: 'order.refunded' });
  await expect(refunded).toBeVisible();
  await refunded.getByRole('button', { name: 'Archive' }).click();
  await expect(refunded).toBeHidden();
  await page.getByLabel('Show archived').check();
  await expect(refunded).toContainText('archived');
  await screenshot(page, 'event-types');

  await page.goto(`${env.baseUrl}/messages?appId=${env.appId}`);
  await expect(page.getByRole('heading', { name: 'Messages' })).toBeVisible();
  await screenshot(page, 'messages');
});

test('an app with more event types than a page lists every one of them, a page at a time', async ({ page }) => {
  // 102 event types (the helper's two and 100 more): a page of 100 (EVENT_TYPES_PAGE_SIZE), then the
  // rest. A single page of 250 used to be all the catalog showed, with nothing said about the rest.
  const env = e2eEnv();
  const app = await createApp({ name: 'Many event types' });
  for (let i = 1; i <= 100; i += 1) {
    await api('POST', `/apps/${app.appId}/event-types`, { name: `stock.moved.${String(i).padStart(3, '0')}` });
  }
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/event-types`);
  await expect(page.getByTestId('event-type-row')).toHaveCount(100);
  await page.getByTestId('event-types-load-more').click();
  await expect(page.getByTestId('event-type-row')).toHaveCount(102);
  await expect(page.getByTestId('event-types-load-more')).toHaveCount(0);
  const names = await page.getByTestId('event-type-row').locator('td:first-child').allTextContents();
  expect(new Set(names.map((name) => name.trim())).size).toBe(102);
});
