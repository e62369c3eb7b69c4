// Every dashboard page loads without a console error or an uncaught exception, once there is
// something on it: an issue that has changed state (open -> acknowledged -> resolved), failed and dead
// deliveries, an operational endpoint. React reports a hydration mismatch (#418) as a console error,
// so this is what catches a page whose server HTML and first client render disagree.
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, createApp, listDeliveries, sendMessages, setReceiverMode, signIn } from './support/helpers';

interface Issue {
  id: string;
  status: string;
}

test.afterEach(async () => {
  await setReceiverMode('ok');
});

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${page.url()}: console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught: ${error.message}`));
  return errors;
}

test('no dashboard page logs a console error once issues have changed state', async ({ page }) => {
  test.setTimeout(180_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Console Shop' });
  await setReceiverMode('fail');
  await sendMessages(6, { appId: app.appId });
  await expect
    .poll(async () => (await api<{ data: Issue[] }>('GET', `/issues?appId=${app.appId}`)).data.length, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  const [issue] = (await api<{ data: Issue[] }>('GET', `/issues?appId=${app.appId}`)).data;
  // An issue that has changed state, and one that is still open.
  await api('POST', `/issues/${issue!.id}/acknowledge`);
  await api('POST', `/issues/${issue!.id}/resolve`);
  await expect.poll(async () => (await listDeliveries(app.appId)).length).toBeGreaterThan(0);
  const [delivery] = await listDeliveries(app.appId);
  await setReceiverMode('ok');

  const errors = collectErrors(page);
  await signIn(page);
  const pages = [
    '/overview',
    '/apps',
    `/apps/${app.appId}`,
    `/apps/${app.appId}/endpoints`,
    `/apps/${app.appId}/endpoints/${app.endpointId}`,
    `/apps/${app.appId}/event-types`,
    `/apps/${app.appId}/jobs`,
    `/apps/${app.appId}/settings`,
    `/apps/${app.appId}/deliveries/${delivery!.id}`,
    `/apps/${app.appId}/messages/${delivery!.messageId}`,
    '/endpoints',
    '/deliveries',
    '/messages',
    '/issues',
    '/issues?status=resolved',
    '/issues?status=all',
    `/issues/${issue!.id}`,
    '/operations',
    '/api-keys',
    '/audit',
  ];
  for (const path of pages) {
    await page.goto(`${env.baseUrl}${path}`);
    await expect(page.locator('main')).toBeVisible();
    // Data arrives after the first render; a mismatch or a failed request shows up by then.
    await page.waitForLoadState('networkidle');
  }
  expect(errors).toEqual([]);
});
