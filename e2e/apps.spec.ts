import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, signIn } from './support/helpers';

// A deployment with more apps than one page of the API (250): the apps page lists every one of them,
// 100 at a time, and a picker filtered by an app beyond its first 250 names that app. Before, the apps
// page showed the first 250 and said nothing of the rest, and the overview's picker, filtered by such
// an app through its link, read "All apps". The apps made here are deleted at the end: other specs find
// their own apps among the first 250.
test('lists every app a page at a time, and a picker names an app beyond its first 250', async ({ page }) => {
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
    await page.getByTestId('app-row').filter({ hasText: env.appId }).getByTestId('app-queued').getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`appId=${env.appId}`));
    await expect(page.getByLabel('App')).toHaveValue(env.appId);
    await expect(page.getByLabel('App').locator('option:checked')).toHaveText(oldestName);
  } finally {
    for (const appId of made) await api('DELETE', `/apps/${appId}`);
  }
});
