import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { screenshot, signIn } from './support/helpers';

test('the audit log shows who changed what from the dashboard and the API, and filters it', async ({ page }) => {
  const env = e2eEnv();
  await signIn(page);

  // A change in the dashboard, by the signed-in admin.
  const name = `E2E Audited ${Date.now()}`;
  await page.goto(`${env.baseUrl}/apps`);
  await page.getByRole('button', { name: 'New app' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create app' }).click();
  await expect(page.getByRole('link', { name })).toBeVisible();

  // A change through the API, by a key.
  const disabled = await fetch(`${env.baseUrl}/api/v1/apps/${env.appId}/endpoints/${env.endpointId}/disable`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'audited in e2e' }),
  });
  expect(disabled.status).toBe(200);
  await fetch(`${env.baseUrl}/api/v1/apps/${env.appId}/endpoints/${env.endpointId}/enable`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.apiKey}` },
  });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const created = page.getByTestId('audit-row').filter({ hasText: 'app.created' }).filter({ hasText: name });
  await expect(created).toBeVisible();
  await expect(created).toContainText(env.adminEmail);
  await expect(created).toContainText('127.0.0.1');
  const disabledRow = page.getByTestId('audit-row').filter({ hasText: 'endpoint.disabled' }).first();
  await expect(disabledRow).toContainText('API key');
  await expect(disabledRow).toContainText('"audited in e2e"');
  await screenshot(page, 'audit-log');

  // A family of actions: endpoint changes only.
  await page.getByLabel('Action').fill('endpoint.');
  await page.getByLabel('Action').press('Enter');
  await expect(page).toHaveURL(/action=endpoint\./);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'app.created' })).toHaveCount(0);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'endpoint.enabled' }).first()).toBeVisible();

  // One resource's history: click its id.
  await page.getByLabel('Action').fill('');
  await page.getByLabel('Action').press('Enter');
  await disabledRow.getByRole('button', { name: env.endpointId }).click();
  await expect(page).toHaveURL(new RegExp(`resourceId=${env.endpointId}`));
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain(env.endpointId);
});
