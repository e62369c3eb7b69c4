// Bulk actions as background jobs, in Chromium against the real server and worker: replay by filter
// counts first, then shows the job's progress to the end; recover can be cancelled half-way, and what
// it did stays done while the rest is untouched; the Jobs page lists both with their outcome; a new
// endpoint is backfilled. The server runs jobs in batches of 20 with a 250 ms pause
// (e2e/global-setup.ts), so a few hundred rows take seconds and the progress can be watched.
import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
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

interface JobRow {
  id: string;
  kind: string;
  state: string;
  total: number;
  processed: number;
}

/** `count` dead deliveries in a new app: sent while the receiver fails, until retries run out. */
async function appWithDeadDeliveries(name: string, count: number) {
  const app = await createApp({ name });
  await setReceiverMode('fail');
  try {
    await sendMessages(count, { appId: app.appId });
    await expect
      .poll(async () => (await listDeliveries(app.appId, 'state=dead')).length, { timeout: 60_000 })
      .toBe(count);
  } finally {
    await setReceiverMode('ok');
  }
  return app;
}

async function jobsOf(appId: string): Promise<JobRow[]> {
  return (await api<{ data: JobRow[] }>('GET', `/apps/${appId}/jobs`)).data;
}

async function localInputValue(page: Page, time: number): Promise<string> {
  return page.evaluate((ms) => {
    const date = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, time);
}

test("replay by filter: the count first, then the job's progress to done; the Jobs page lists it; backfill", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const env = e2eEnv();
  const since = Date.now() - 60_000;
  const app = await appWithDeadDeliveries('E2E Jobs Replay', 160);
  await signIn(page);
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&state=dead`);
  await page.getByTestId('replay-matching').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('replay-matching-count')).toContainText('160 deliveries (dead) match');
  await expect(dialog.getByTestId('confirm-replay-matching')).toHaveText('Replay 160');
  await screenshot(page, 'jobs-replay-count');
  await dialog.getByTestId('confirm-replay-matching').click();

  // 8 batches of 20, 250 ms apart: the bar is seen moving before it is full.
  const progress = dialog.getByRole('progressbar', { name: 'Job progress' });
  await expect(progress).toBeVisible();
  await expect(dialog.getByTestId('job-progress-text')).toHaveText(/^\d+ of 160 deliveries done \(\d+ %\)\.$/);
  const seen = Number(await progress.getAttribute('aria-valuenow'));
  expect(seen).toBeLessThan(100);
  await screenshot(page, 'jobs-replay-progress');
  await expect(dialog.getByTestId('job-progress-text')).toHaveText('Done: 160 deliveries replayed.', {
    timeout: 30_000,
  });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(dialog.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
  await screenshot(page, 'jobs-replay-done');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Replayed 160 deliveries matching the filter' }),
  ).toBeVisible();
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).length, { timeout: 30_000 })
    .toBe(160);

  const [job] = await jobsOf(app.appId);
  expect(job).toMatchObject({ kind: 'replay', state: 'succeeded', total: 160, processed: 160 });

  // A new endpoint gets every message it missed, through a backfill job.
  const fresh = await api<{ id: string }>('POST', `/apps/${app.appId}/endpoints`, {
    url: `${env.receiverUrl}/hooks/e2e-jobs-backfill`,
  });
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${fresh.id}`);
  await page.getByRole('button', { name: 'Backfill…' }).click();
  const backfill = page.getByRole('dialog');
  await backfill.getByLabel('Since (your local time)').fill(await localInputValue(page, since));
  await expect(backfill.getByTestId('backfill-count')).toHaveText('160 messages will be sent to this endpoint.');
  await screenshot(page, 'jobs-backfill-count');
  await backfill.getByRole('button', { name: 'Send them' }).click();
  await expect(backfill.getByTestId('job-progress-text')).toHaveText('Done: 160 messages queued for the endpoint.', {
    timeout: 30_000,
  });
  await backfill.getByRole('button', { name: 'Close' }).click();
  await expect
    .poll(async () => (await listDeliveries(app.appId, `endpointId=${fresh.id}&state=succeeded`)).length, {
      timeout: 30_000,
    })
    .toBe(160);

  // The Jobs page: both jobs with their outcome, at desktop and phone width.
  await page.goto(`${env.baseUrl}/apps/${app.appId}/jobs`);
  const rows = page.getByTestId('job-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Backfill endpoint');
  await expect(rows.nth(0)).toContainText('succeeded');
  await expect(rows.nth(0).getByTestId('job-row-progress')).toHaveText('160 of 160');
  await expect(rows.nth(1)).toContainText('Replay by filter');
  await expect(rows.nth(1)).toContainText('state = dead'); // the filter, shown from 768 px
  await expect(rows.nth(1).getByTestId('job-row-progress')).toHaveText('160 of 160');
  await screenshot(page, 'jobs-page-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page, 'the Jobs page at 375 px');
  await screenshot(page, 'jobs-page-375');
});

test('recover as a job, cancelled half-way: what it replayed stays replayed, the rest stays dead', async ({ page }) => {
  test.setTimeout(150_000);
  const env = e2eEnv();
  const app = await appWithDeadDeliveries('E2E Jobs Cancel', 200);
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${app.endpointId}`);
  await page.getByRole('button', { name: 'Recover…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Since (your local time)').fill(await localInputValue(page, Date.now() - 3_600_000));
  await expect(dialog.getByTestId('recover-count')).toHaveText('200 failed deliveries will be sent again.');
  await screenshot(page, 'jobs-recover-count-375');
  await dialog.getByRole('button', { name: 'Replay failed since then' }).click();
  await expect(dialog.getByTestId('job-progress-text')).toHaveText(/^([2-9]\d|1\d\d) of 200 deliveries done/);
  await screenshot(page, 'jobs-recover-progress-375');
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expect(dialog.getByTestId('job-progress-text')).toHaveText(
    /^Cancelled after \d+ deliver(y|ies) of 200; those stay done\.$/,
  );
  await expect(dialog.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
  await screenshot(page, 'jobs-recover-cancelled-375');

  const [job] = await jobsOf(app.appId);
  expect(job).toMatchObject({ kind: 'recover', state: 'cancelled', total: 200 });
  expect(job!.processed).toBeGreaterThan(0);
  expect(job!.processed).toBeLessThan(200);
  // The job stopped for good: a moment later its progress has not moved, the replayed ones were sent,
  // and exactly the others are still dead.
  await page.waitForTimeout(1_000);
  expect((await jobsOf(app.appId))[0]!.processed).toBe(job!.processed);
  await expect
    .poll(async () => (await listDeliveries(app.appId, 'state=succeeded')).length, { timeout: 30_000 })
    .toBe(job!.processed);
  expect(await listDeliveries(app.appId, 'state=dead')).toHaveLength(200 - job!.processed);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.goto(`${env.baseUrl}/apps/${app.appId}/jobs`);
  await expect(page.getByTestId('job-row')).toHaveCount(1);
  await expect(page.getByTestId('job-row')).toContainText('cancelled');
  await expect(page.getByTestId('job-row-progress')).toHaveText(`${job!.processed} of 200`);
  await expectNoHorizontalOverflow(page, 'the Jobs page with a cancelled job at 375 px');
  await screenshot(page, 'jobs-page-cancelled-375');
});
