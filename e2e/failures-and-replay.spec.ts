import { expect, test, type Page } from '@playwright/test';
import { e2eEnv } from './support/env';
import {
  createApp,
  listDeliveries,
  screenshot,
  sendMessages,
  setReceiverMode,
  signIn,
  type DeliveryRow,
} from './support/helpers';

test.afterEach(async () => {
  await setReceiverMode('ok');
});

/** The e2e retry schedule is "0,1s": a delivery to a failing receiver is dead a second or two after it is sent. */
async function waitUntilDead(appId: string, messageIds: string[]): Promise<DeliveryRow[]> {
  let rows: DeliveryRow[] = [];
  await expect
    .poll(
      async () => {
        rows = (await listDeliveries(appId)).filter((delivery) => messageIds.includes(delivery.messageId));
        return rows.length === messageIds.length && rows.every((delivery) => delivery.state === 'dead');
      },
      { timeout: 45_000, message: `deliveries of ${messageIds.length} messages go dead` },
    )
    .toBe(true);
  return rows;
}

async function statesOf(appId: string, ids: string[]): Promise<(string | undefined)[]> {
  const all = await listDeliveries(appId);
  return ids.map((id) => all.find((delivery) => delivery.id === id)?.state);
}

test('a failing receiver shows up by error class; fix it, replay, and deliveries succeed', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  // An app of its own: the rows this test counts are exactly the ones it sent.
  const app = await createApp({ name: 'E2E Replay Shop' });
  await setReceiverMode('fail');
  const paid = await sendMessages(4, {
    appId: app.appId,
    eventType: 'order.paid',
    payload: { scenario: 'receiver-down' },
  });
  // Dead too, but another event type: the explorer's event-type filter must leave these out, and
  // "replay failed matching this filter" must not touch them.
  const created = await sendMessages(2, { appId: app.appId, eventType: 'order.created' });
  await waitUntilDead(app.appId, [...paid, ...created]);

  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${app.appId}`);
  await expect(page.getByTestId('error-classes')).toContainText('http_5xx');
  await expect(page.getByTestId('status-codes')).toContainText('500');
  await expect(page.getByTestId('queue-dead')).toHaveText('6');
  await expect(page.getByTestId('worst-endpoints')).toContainText(app.endpointUrl);
  await screenshot(page, 'overview-with-failures');

  // Filter the explorer with its controls; each filter lands in the URL and narrows the rows.
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}`);
  const rows = page.getByTestId('delivery-row');
  await expect(rows).toHaveCount(6);
  await page.getByLabel('State').selectOption('dead');
  await expect(page).toHaveURL(/state=dead/);
  await expect(rows).toHaveCount(6);
  await page.getByLabel('Event type').selectOption('order.paid');
  await expect(page).toHaveURL(/eventType=order\.paid/);
  await expect(rows).toHaveCount(4);
  await expect(rows.filter({ hasText: 'order.created' })).toHaveCount(0);
  await screenshot(page, 'deliveries-explorer');

  // One delivery's page shows each attempt's response as the receiver sent it.
  const firstId = (await rows.first().getAttribute('data-delivery-id'))!;
  await rows.first().getByRole('link', { name: firstId }).click();
  await expect(page.getByTestId('delivery-state')).toContainText('dead');
  await expect(page.getByTestId('attempt')).toHaveCount(2);
  await expect(page.getByTestId('attempt').first()).toContainText('500');
  await expect(page.getByLabel('Response body').first()).toHaveText('receiver is down for the test');
  await expect(page.getByLabel('Request headers').first()).toContainText('webhook-signature');

  await setReceiverMode('ok');
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByTestId('delivery-state')).toContainText('succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('attempt')).toHaveCount(3);
  await expect(page.getByTestId('attempt').first()).toContainText('200');
  await screenshot(page, 'delivery-replayed');

  // Back in the filtered explorer, replay a selection of two of the three still dead.
  await page.goto(`${env.baseUrl}/deliveries?appId=${app.appId}&state=dead&eventType=order.paid`);
  await expect(rows).toHaveCount(3);
  const rowIds = await Promise.all([0, 1, 2].map(async (i) => (await rows.nth(i).getAttribute('data-delivery-id'))!));
  const selectedIds = rowIds.slice(0, 2);
  const lastDeadId = rowIds[2]!;
  for (const id of selectedIds) await page.getByLabel(`Select ${id}`).check();
  await expect(page.getByTestId('replay-selected')).toHaveText('Replay selected (2)');
  await page.getByTestId('replay-selected').click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 2 of 2 selected deliveries' })).toBeVisible();
  await expect.poll(() => statesOf(app.appId, selectedIds), { timeout: 20_000 }).toEqual(['succeeded', 'succeeded']);
  expect(await statesOf(app.appId, [lastDeadId])).toEqual(['dead']);

  // The last dead one: "replay all failed matching this filter" says how many before it acts.
  await expect(rows).toHaveCount(1);
  await page.getByTestId('replay-matching').click();
  await expect(page.getByTestId('replay-matching-count')).toContainText('1 delivery (dead) matches');
  await expect(page.getByTestId('replay-matching-count')).toContainText('event type order.paid');
  await expect(page.getByTestId('confirm-replay-matching')).toHaveText('Replay 1');
  await screenshot(page, 'replay-matching-confirm');
  await page.getByTestId('confirm-replay-matching').click();
  // A background job does it; the dialog follows it to the end.
  await expect(page.getByTestId('job-progress-text')).toHaveText('Done: 1 delivery replayed.');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 1 delivery matching the filter' })).toBeVisible();
  await expect.poll(() => statesOf(app.appId, [lastDeadId]), { timeout: 20_000 }).toEqual(['succeeded']);
  expect(await listDeliveries(app.appId, 'state=succeeded&eventType=order.paid')).toHaveLength(4);
  // Outside the filter nothing moved: the order.created deliveries are still dead, with their two attempts.
  const untouched = await listDeliveries(app.appId, 'eventType=order.created');
  expect(untouched.map((delivery) => [delivery.state, delivery.attemptCount])).toEqual([
    ['dead', 2],
    ['dead', 2],
  ]);
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No deliveries match')).toBeVisible();
});

/** A time as <input type="datetime-local" step="1"> wants it, in the browser's own time zone. */
function localInputValue(page: Page, time: number): Promise<string> {
  return page.evaluate((ms) => {
    const date = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, time);
}

test('recover replays the failed deliveries of an endpoint since the chosen time, and none before', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const env = e2eEnv();
  const app = await createApp({ name: 'E2E Recover Shop' });
  await setReceiverMode('fail');
  const before = await waitUntilDead(app.appId, await sendMessages(2, { appId: app.appId }));
  // The input counts whole seconds: start the window on the next full second, after every "before" row.
  const since = Math.ceil((Date.now() + 1) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, since - Date.now() + 50));
  const after = await waitUntilDead(app.appId, await sendMessages(3, { appId: app.appId }));
  await setReceiverMode('ok');

  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${app.appId}/endpoints/${app.endpointId}`);
  await expect(page.getByTestId('endpoint-url')).toHaveText(app.endpointUrl);
  await page.getByRole('button', { name: 'Recover…' }).click();
  const dialog = page.getByRole('dialog');
  // The confirmation counts before anything changes: the window's three, not the two before it.
  await dialog.getByLabel('Since (your local time)').fill(await localInputValue(page, since + 3_600_000));
  await expect(dialog.getByTestId('recover-count')).toHaveText(/^Nothing to replay/);
  await expect(dialog.getByRole('button', { name: 'Replay failed since then' })).toBeDisabled();
  await dialog.getByLabel('Since (your local time)').fill(await localInputValue(page, since));
  await expect(dialog.getByTestId('recover-count')).toHaveText('3 failed deliveries will be sent again.');
  await screenshot(page, 'endpoint-recover');
  await dialog.getByRole('button', { name: 'Replay failed since then' }).click();
  await expect(dialog.getByTestId('job-progress-text')).toHaveText('Done: 3 deliveries replayed.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const afterIds = after.map((delivery) => delivery.id);
  await expect.poll(() => statesOf(app.appId, afterIds), { timeout: 20_000 }).toEqual(afterIds.map(() => 'succeeded'));
  // Failed before the chosen time: left dead, not attempted again.
  const beforeNow = (await listDeliveries(app.appId)).filter((row) => before.some((b) => b.id === row.id));
  expect(beforeNow.map((row) => [row.state, row.attemptCount])).toEqual([
    ['dead', 2],
    ['dead', 2],
  ]);
  await expect(page.getByTestId('delivery-row').filter({ hasText: 'succeeded' })).toHaveCount(3);
});
