import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, screenshot, signIn } from './support/helpers';

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

test('more API keys than a page: listed 100 at a time, every one reachable', async ({ page }) => {
  const env = e2eEnv();
  // 101 keys made here, so at least 102 exist with the e2e run's own: more than a page of 100
  // (API_KEYS_PAGE_SIZE). The page used to read one page of 250 and say nothing of the rest.
  const made: string[] = [];
  try {
    for (let i = 1; i <= 101; i += 1) {
      made.push((await api<{ apiKey: { id: string } }>('POST', '/api-keys', { name: `e2e-many-${i}` })).apiKey.id);
    }
    await signIn(page);
    await page.goto(`${env.baseUrl}/api-keys`);
    const rows = page.getByTestId('api-key-row');
    await expect(rows).toHaveCount(100);
    // Newest first: the first of these is past the first page.
    await expect(rows.filter({ has: page.getByText('e2e-many-1', { exact: true }) })).toHaveCount(0);
    while ((await page.getByTestId('api-keys-load-more').count()) > 0) {
      const before = await rows.count();
      await page.getByTestId('api-keys-load-more').click();
      await expect(rows).not.toHaveCount(before);
    }
    expect(await rows.count()).toBeGreaterThan(101);
    await expect(rows.filter({ has: page.getByText('e2e-many-1', { exact: true }) })).toHaveCount(1);
  } finally {
    for (const keyId of made) await api('DELETE', `/api-keys/${keyId}`);
  }
});
