import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, createApp, expectNoHorizontalOverflow, screenshot, signIn } from './support/helpers';

// The retry policy from the dashboard: an app's default on its settings page, an endpoint's own on
// the edit form, what the worker will apply on the endpoint page, and a bad schedule refused with
// the field named. The worker following it is test/worker/retry-policy.test.ts.
test("set an app's default retry policy and an endpoint's own", async ({ page }) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'Retry policy e2e' });
  await signIn(page);

  await page.goto(`${env.baseUrl}/apps/${app.appId}/settings`);
  await page.getByLabel('Retry schedule').fill('0,10s,1m,10m');
  await page.getByLabel('Timeout (ms)').fill('4000');
  await page.getByRole('button', { name: 'Update retry policy' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect(await api('GET', `/apps/${app.appId}`)).toMatchObject({ retrySchedule: '0,10s,1m,10m', timeoutMs: 4000 });

  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${app.endpointId}`);
  const policy = page.getByTestId('retry-policy');
  await expect(policy).toContainText("0,10s,1m,10m (4 attempts, app's)");
  await expect(policy).toContainText("timeout 4000 ms (app's)");

  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Retry schedule').fill('5s,1m');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toContainText('retrySchedule.0: must be 0');
  await screenshot(page, 'retry-policy-refused');

  await dialog.getByLabel('Retry schedule').fill('0,2s,30s');
  await dialog.getByLabel('Timeout (ms)').fill('1500');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(policy).toContainText('0,2s,30s (3 attempts, own)');
  await expect(policy).toContainText('timeout 1500 ms (own)');
  await screenshot(page, 'retry-policy-endpoint');
  expect(await api('GET', `/apps/${app.appId}/endpoints/${app.endpointId}`)).toMatchObject({
    retrySchedule: '0,2s,30s',
    timeoutMs: 1500,
    retryPolicy: { retryScheduleFrom: 'endpoint', timeoutFrom: 'endpoint' },
  });

  // At phone width both forms fit without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(policy).toContainText('0,2s,30s');
  await expectNoHorizontalOverflow(page, 'endpoint with its retry policy at 375 px');
  await screenshot(page, 'retry-policy-endpoint-phone');
  await page.goto(`${env.baseUrl}/apps/${app.appId}/settings`);
  await expect(page.getByLabel('Retry schedule')).toHaveValue('0,10s,1m,10m');
  await expectNoHorizontalOverflow(page, 'app settings at 375 px');
  await screenshot(page, 'retry-policy-app-settings-phone');
});
