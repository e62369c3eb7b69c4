import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, signIn } from './support/helpers';

// A deployment with more apps than one page of the API (250): the apps page lists every one of them,
// 100 at a time, a picker filtered by an app beyond its first 250 names that app, and every picker
// finds such an app by typing. Before, the apps page showed the first 250 and said nothing of the rest,
// the overview's picker, filtered by such an app through its link, read "All apps", and no picker could
// choose it (an API key or a member could not be held to it). The apps made here are deleted at the
// end: other specs find their own apps among the first 250.
test('lists every app a page at a time, and a picker names and finds an app beyond its first 250', async ({ page }) => {
  test.setTimeout(180_000);
  const env = e2eEnv();
  const made: string[] = [];
  try {
    for (let i = 1; i <= 250; i += 1) {
      made.push((await api<{ id: string }>('POST', '/apps', { name: `Crowd ${String(i).padStart(3, '0')}` })).id);
    }
    const { name: oldestName } = await api<{ name: string }>('GET', `/apps/${env.appId}`);
    await signIn(page);

    // Newest first: the e2e app, made before all of these, is past the first page.
    await page.goto(`${env.baseUrl}/apps`);
    await expect(page.getByTestId('app-row')).toHaveCount(100);
    await expect(page.getByTestId('app-row').filter({ hasText: env.appId })).toHaveCount(0);
    while ((await page.getByTestId('apps-load-more').count()) > 0) {
      const before = await page.getByTestId('app-row').count();
      await page.getByTestId('apps-load-more').click();
      await expect(page.getByTestId('app-row')).not.toHaveCount(before);
    }
    await expect(page.getByTestId('app-row').filter({ hasText: env.appId })).toHaveCount(1);
    const listed = await page.getByTestId('app-row').count();
    expect(listed).toBeGreaterThan(250);

    // Its link to the overview filters by it; the picker says so, though it is not among the 250 newest.
    await page
      .getByTestId('app-row')
      .filter({ hasText: env.appId })
      .getByTestId('app-queued')
      .getByRole('link')
      .click();
    await expect(page).toHaveURL(new RegExp(`appId=${env.appId}`));
    await expect(page.getByLabel('App', { exact: true })).toHaveValue(env.appId);
    await expect(page.getByLabel('App', { exact: true }).locator('option:checked')).toHaveText(oldestName);

    // The overview's picker finds it by typing, once it is no longer the page's filter.
    await page.getByLabel('App', { exact: true }).selectOption('');
    await expect(page.getByLabel('App', { exact: true }).locator(`option[value="${env.appId}"]`)).toHaveCount(0);
    await page.getByLabel('Find an app').fill(env.appId);
    await page.getByLabel('App', { exact: true }).selectOption(env.appId);
    await expect(page).toHaveURL(new RegExp(`appId=${env.appId}`));

    // An API key held to it: the key sees that app alone.
    await page.goto(`${env.baseUrl}/api-keys`);
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('e2e-beyond-250');
    await expect(dialog.getByLabel('Scope').locator(`option[value="${env.appId}"]`)).toHaveCount(0);
    await dialog.getByLabel('Find an app').fill(oldestName);
    await dialog.getByLabel('Scope').selectOption(env.appId);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    const seen = await fetch(`${env.baseUrl}/api/v1/apps`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await seen.json()) as { data: { id: string }[] }).data.map((app) => app.id)).toEqual([env.appId]);
    const keys = await api<{ data: { id: string; name: string }[] }>('GET', '/api-keys?limit=250');
    for (const made of keys.data.filter((k) => k.name === 'e2e-beyond-250'))
      await api('DELETE', `/api-keys/${made.id}`);
  } finally {
    for (const appId of made) await api('DELETE', `/apps/${appId}`);
  }
});
