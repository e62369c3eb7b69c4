import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, screenshot, sendMessages, setReceiverMode, signIn } from './support/helpers';

interface DeliveryList {
  data: { id: string; state: string; eventType: string }[];
}

async function deliveries(query: string): Promise<DeliveryList['data']> {
  const { appId } = e2eEnv();
  return (await api<DeliveryList>('GET', `/apps/${appId}/deliveries?limit=250&${query}`)).data;
}

test.afterEach(async () => {
  await setReceiverMode('ok');
});

test('a failing receiver shows up by error class; fix it, replay, and deliveries succeed', async ({ page }) => {
  test.setTimeout(120_000);
  const env = e2eEnv();
  await setReceiverMode('fail');
  await sendMessages(4, 'order.paid', { scenario: 'receiver-down' });
  // The e2e retry schedule is "0,1s": each delivery is dead a second or two after its last 500.
  await expect
    .poll(async () => (await deliveries('state=dead&eventType=order.paid')).length, { timeout: 45_000 })
    .toBeGreaterThanOrEqual(4);

  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${env.appId}`);
  await expect(page.getByTestId('error-classes')).toContainText('http_5xx');
  await expect(page.getByTestId('status-codes')).toContainText('500');
  await expect(page.getByTestId('queue-dead')).not.toHaveText('0');
  await expect(page.getByTestId('worst-endpoints')).toContainText('/hooks/orders');
  await screenshot(page, 'overview-with-failures');

  // Filter the explorer with its controls; the filter lands in the URL.
  await page.goto(`${env.baseUrl}/deliveries?appId=${env.appId}`);
  await page.getByLabel('State').selectOption('dead');
  await page.getByLabel('Event type').selectOption('order.paid');
  await expect(page).toHaveURL(/state=dead/);
  await expect(page).toHaveURL(/eventType=order\.paid/);
  const rows = page.getByTestId('delivery-row');
  await expect(rows).toHaveCount(4);
  await screenshot(page, 'deliveries-explorer');

  // One delivery's page shows each attempt's response as the receiver sent it.
  const firstId = (await rows.first().getAttribute('data-delivery-id'))!;
  await rows.first().getByRole('link', { name: firstId }).click();
  await expect(page.getByTestId('delivery-state')).toContainText('dead');
  await expect(page.getByTestId('attempt').first()).toContainText('500');
  await expect(page.getByLabel('Response body').first()).toHaveText('receiver is down for the test');
  await expect(page.getByLabel('Request headers').first()).toContainText('webhook-signature');

  await setReceiverMode('ok');
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByTestId('delivery-state')).toContainText('succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('attempt').first()).toContainText('200');
  await screenshot(page, 'delivery');

  // Back in the filtered explorer, replay a selection of two.
  await page.goto(`${env.baseUrl}/deliveries?appId=${env.appId}&state=dead&eventType=order.paid`);
  await expect(rows).toHaveCount(3);
  const selectedIds = [
    (await rows.nth(0).getAttribute('data-delivery-id'))!,
    (await rows.nth(1).getAttribute('data-delivery-id'))!,
  ];
  for (const id of selectedIds) await page.getByLabel(`Select ${id}`).check();
  await page.getByTestId('replay-selected').click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 2 of 2' })).toBeVisible();
  await expect
    .poll(async () => {
      const all = await deliveries('eventType=order.paid');
      return selectedIds.map((id) => all.find((d) => d.id === id)?.state);
    })
    .toEqual(['succeeded', 'succeeded']);

  // The last dead one: "replay failed matching this filter" says how many before it acts.
  await expect(rows).toHaveCount(1);
  await page.getByTestId('replay-matching').click();
  await expect(page.getByTestId('replay-matching-count')).toContainText('1 delivery');
  await page.getByTestId('confirm-replay-matching').click();
  await expect(page.getByRole('status').filter({ hasText: 'Replayed 1' })).toBeVisible();
  await expect.poll(async () => (await deliveries('state=dead&eventType=order.paid')).length).toBe(0);
  await expect.poll(async () => (await deliveries('state=succeeded&eventType=order.paid')).length).toBeGreaterThanOrEqual(4);
});
