// Operational events in the dashboard: a failing endpoint opens an issue (the trigger on
// hookline.endpoints, through the real worker), an operator acknowledges and resolves it in Chromium,
// and when the endpoint recovers and fails again the same issue reopens. The nav and the overview show
// the open count. Operational endpoints (Slack preset) and alert rules are set up on /operations.
import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import { createPool } from '../lib/database/pg';
import {
  api,
  createApp,
  expectNoHorizontalOverflow,
  listDeliveries,
  screenshot,
  sendMessages,
  setReceiverMode,
  signIn,
} from './support/helpers';

interface Issue {
  id: string;
  appId: string;
  endpointId: string | null;
  status: string;
  title: string;
}

test.afterEach(async () => {
  await setReceiverMode('ok');
});

async function issueOf(appId: string): Promise<Issue | undefined> {
  return (await api<{ data: Issue[] }>('GET', `/issues?appId=${appId}`)).data[0];
}

async function consecutiveFailures(appId: string, endpointId: string): Promise<number> {
  const endpoint = await api<{ health: { consecutiveFailures: number } }>(
    'GET',
    `/apps/${appId}/endpoints/${endpointId}`,
  );
  return endpoint.health.consecutiveFailures;
}

async function atWidths(page: Page, name: string) {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page, name);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an issue opens, is acknowledged and resolved, and reopens when the endpoint fails again', async ({ page }) => {
  // The last step waits for the worker's once-a-minute operations pass.
  test.setTimeout(200_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Issues Shop' });
  await setReceiverMode('fail');
  // Three failed attempts in a row: endpoint.failing, and with it the issue (endpoint, http_5xx).
  await sendMessages(3, { appId: app.appId });
  await expect.poll(async () => (await issueOf(app.appId))?.status, { timeout: 30_000 }).toBe('open');
  const issue = (await issueOf(app.appId))!;
  expect(issue.endpointId).toBe(app.endpointId);

  await signIn(page);
  await expect(page.getByTestId('overview-open-issues')).toContainText('open');
  const navCount = page.getByTestId('nav-open-issues');
  await expect(navCount).toBeVisible();
  const openBefore = Number(await navCount.textContent());
  expect(openBefore).toBeGreaterThanOrEqual(1);

  await page.getByRole('link', { name: /^Issues/ }).click();
  await page.waitForURL(/\/issues/);
  const row = page.getByTestId('issue-row').filter({ hasText: app.appName });
  await expect(row).toContainText('Failing');
  await expect(row).toContainText('http_5xx');
  await expect(row).toContainText('open');
  await atWidths(page, 'issues-open');

  await row.getByRole('link').first().click();
  await page.waitForURL(new RegExp(`/issues/${issue.id}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Failing');
  await expect(page.getByRole('link', { name: app.endpointUrl })).toBeVisible();
  await page.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  await expect(page.locator('main')).toContainText('acknowledged');
  // Acknowledged issues are being handled: the nav counts open ones only.
  await expect
    .poll(async () => Number((await page.getByTestId('nav-open-issues').count()) ? await navCount.textContent() : 0))
    .toBe(openBefore - 1);
  expect((await api<Issue>('GET', `/issues/${issue.id}`)).status).toBe('acknowledged');

  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByRole('button', { name: 'Resolve' })).toHaveCount(0);
  await expect(page.locator('main')).toContainText('resolved');
  expect((await api<Issue>('GET', `/issues/${issue.id}`)).status).toBe('resolved');
  await atWidths(page, 'issue-resolved');

  // The endpoint recovers (its failure streak ends)...
  await setReceiverMode('ok');
  await sendMessages(1, { appId: app.appId });
  await expect.poll(() => consecutiveFailures(app.appId, app.endpointId), { timeout: 30_000 }).toBe(0);
  // ...and fails again: the same issue reopens, and the page (live) shows it.
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId });
  await expect(page.locator('main')).toContainText('reopened once', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toBeVisible();
  const reopened = await api<Issue & { reopenedCount: number; eventCount: number }>('GET', `/issues/${issue.id}`);
  expect(reopened).toMatchObject({ status: 'open', reopenedCount: 1 });
  expect(reopened.eventCount).toBeGreaterThanOrEqual(2);
  await atWidths(page, 'issue-reopened');

  // The dead deliveries (retry schedule "0,1s") are counted into the issue by the worker's
  // once-a-minute pass, each linking to its delivery.
  await expect
    .poll(async () => (await api<{ affectedDeliveries: number }>('GET', `/issues/${issue.id}`)).affectedDeliveries, {
      timeout: 90_000,
      intervals: [2_000],
    })
    .toBeGreaterThan(0);
  const firstDelivery = page.getByTestId('issue-deliveries').getByRole('link').first();
  await expect(firstDelivery).toBeVisible({ timeout: 15_000 });
  await screenshot(page, 'issue-with-deliveries-1280');
  await firstDelivery.click();
  await page.waitForURL(new RegExp(`/apps/${app.appId}/deliveries/dlv_`));
  await expect(page.locator('main')).toContainText('dead');

  await page.goto(`${env.baseUrl}/issues?status=open`);
  await expect(page.getByTestId('issue-row').filter({ hasText: app.appName })).toContainText('open');
});

test('operations: subscribe a Slack-style endpoint and add an alert rule', async ({ page }) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Alerting Shop' });
  await signIn(page);
  await page.getByRole('link', { name: 'Operations' }).click();
  await page.waitForURL(/\/operations/);

  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('URL').fill(`${env.receiverUrl}/slack/${app.appId}`);
  await dialog.getByLabel('Events of').selectOption(app.appId);
  await dialog.getByRole('checkbox', { name: 'endpoint.failing' }).check();
  await dialog.getByRole('button', { name: 'Slack' }).click();
  await expect(dialog.getByLabel('Payload template')).toHaveValue(/"text"/);
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByTestId('operational-endpoint-secret')).toContainText('whsec_');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('operational-endpoint-row').filter({ hasText: `/slack/${app.appId}` });
  await expect(row).toContainText(app.appName);
  await expect(row).toContainText('endpoint.failing');
  await expect(row).toContainText('template');

  // A template that is not JSON once filled in is refused, naming the field.
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await dialog.getByLabel('URL').fill(`${env.receiverUrl}/broken`);
  await dialog.getByLabel('Payload template').fill('{"text": {{type}}}');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog).toContainText('payloadTemplate');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('combobox', { name: 'App' }).selectOption(app.appId);
  await page.getByLabel('Threshold (%)').fill('90');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await expect(page.getByTestId('alert-rule-row')).toContainText('Success rate below 90 % over 15 min');
  await atWidths(page, 'operations');
});

test('an issue names its endpoint, is reopened by hand, and is muted for a chosen time', async ({ page }) => {
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Mute Shop' });
  await setReceiverMode('fail');
  await sendMessages(3, { appId: app.appId });
  await expect.poll(async () => (await issueOf(app.appId))?.status, { timeout: 30_000 }).toBe('open');
  // Resolved by hand only once no attempt is left to fail (HOOKLINE_RETRY_SCHEDULE=0,1s: two each, then
  // dead): resolved while one was still in flight, its failure, recorded after, reopened the issue
  // (seen once in a full run on a slow machine).
  await expect.poll(async () => (await listDeliveries(app.appId, 'state=dead')).length, { timeout: 30_000 }).toBe(3);
  const issue = (await issueOf(app.appId))!;
  await api('POST', `/issues/${issue.id}/resolve`);
  await setReceiverMode('ok');

  await signIn(page);
  await page.goto(`${env.baseUrl}/issues?status=all`);
  const row = page.getByTestId('issue-row').filter({ hasText: app.appName });
  await expect(row.getByTestId('issue-endpoint-url')).toHaveText(app.endpointUrl);
  await expect(row).toContainText('resolved');

  await row.getByRole('button', { name: 'Reopen' }).click();
  await expect(row.getByRole('button', { name: 'Acknowledge' })).toBeVisible();
  expect((await api<Issue>('GET', `/issues/${issue.id}`)).status).toBe('open');

  await row.getByRole('combobox', { name: 'Mute notifications for' }).selectOption({ label: 'for 4 hours' });
  await expect(row.getByTestId('issue-muted')).toContainText('muted until');
  const muted = await api<Issue & { mutedUntil: string }>('GET', `/issues/${issue.id}`);
  const hours = (new Date(muted.mutedUntil).getTime() - Date.now()) / 3_600_000;
  expect(hours).toBeGreaterThan(3.9);
  expect(hours).toBeLessThanOrEqual(4);
  await atWidths(page, 'issue-muted');

  await row.getByRole('button', { name: 'Unmute' }).click();
  await expect(row.getByTestId('issue-muted')).toHaveCount(0);
  expect((await api<Issue & { mutedUntil: string | null }>('GET', `/issues/${issue.id}`)).mutedUntil).toBeNull();
});

test('more issues than a page: listed 100 at a time, every one reachable', async ({ page }) => {
  const env = e2eEnv();
  // 101 open issues of one app, seen a minute apart: more than a page of 100 (ISSUES_PAGE_SIZE). The
  // page used to read one page of 250 and say nothing of the rest. Seeded in the database: opening
  // 101 through failing endpoints would take the operations pass minutes.
  const app = await createApp({ name: `E2E Many Issues ${Date.now()}` });
  const pool = createPool(env.databaseUrl);
  try {
    await pool.query(
      `INSERT INTO hookline.issues (app_id, subject_id, endpoint_id, error_class, title, last_seen_at)
       SELECT $1, $2 || '-' || i, $2, 'http_5xx', 'many-issues ' || lpad(i::text, 3, '0'), now() - make_interval(mins => i)
         FROM generate_series(1, 101) AS i`,
      [app.appId, app.endpointId],
    );
    await signIn(page);
    await page.goto(`${env.baseUrl}/issues`);
    const rows = page.getByTestId('issue-row');
    await expect(rows).toHaveCount(100);
    while ((await page.getByTestId('issues-load-more').count()) > 0) {
      const before = await rows.count();
      await page.getByTestId('issues-load-more').click();
      await expect(rows).not.toHaveCount(before);
    }
    // Seen last of them, the 101st is past the first page; every one is listed once.
    await expect(rows.filter({ hasText: 'many-issues' })).toHaveCount(101);
    await expect(rows.filter({ hasText: 'many-issues 101' })).toHaveCount(1);
  } finally {
    await pool.query('DELETE FROM hookline.issues WHERE app_id = $1', [app.appId]);
    await pool.end();
  }
});
