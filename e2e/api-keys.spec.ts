import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { screenshot, signIn } from './support/helpers';

test('an API key is shown once, works, never shows again, and stops working when revoked', async ({ page }) => {
  const env = e2eEnv();
  await signIn(page);
  await page.goto(`${env.baseUrl}/api-keys`);
  await page.getByRole('button', { name: 'New API key' }).click();
  await page.getByLabel('Name').fill('e2e-billing');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())!;
  expect(key).toMatch(/^hl_/);
  await page.getByRole('button', { name: 'Done' }).click();

  const withKey = await fetch(`${env.baseUrl}/api/v1/apps`, { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status).toBe(200);

  await page.reload();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'e2e-billing' });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/ago/); // last used, just now
  expect(await page.content()).not.toContain(key);
  await screenshot(page, 'api-keys');

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  const afterRevoke = await fetch(`${env.baseUrl}/api/v1/apps`, { headers: { authorization: `Bearer ${key}` } });
  expect(afterRevoke.status).toBe(401);
});
