import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { api, screenshot, setReceiverMode, signIn } from './support/helpers';
import { XSS_RESPONSE_BODY } from './support/receiver';

const PAYLOAD_MARKUP = '<img src=x onerror="window.__hooklineXss=3"><script>window.__hooklineXss=4</script>';

test('markup in event data and in a receiver response renders as text and runs nothing', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('xss');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    const message = await api<{ id: string }>('POST', `/apps/${env.appId}/messages`, {
      eventType: 'order.created',
      payload: { note: PAYLOAD_MARKUP },
    });
    let deliveryId = '';
    await expect
      .poll(async () => {
        const detail = await api<{ deliveries: { id: string; state: string }[] }>(
          'GET',
          `/apps/${env.appId}/messages/${message.id}`,
        );
        deliveryId = detail.deliveries[0]?.id ?? '';
        return detail.deliveries[0]?.state;
      })
      .toBe('dead');

    await signIn(page);
    await page.goto(`${env.baseUrl}/apps/${env.appId}/deliveries/${deliveryId}`);
    await expect(page.getByLabel('Response body').first()).toHaveText(XSS_RESPONSE_BODY);
    await expect(page.getByLabel('Payload')).toContainText(PAYLOAD_MARKUP.replaceAll('"', '\\"'));
    await expect(page.getByLabel('Response headers').first()).toContainText('<b>bold</b>');
    // Shown as characters, never parsed into elements.
    await expect(page.locator('main img, main script, main b')).toHaveCount(0);

    await page.goto(`${env.baseUrl}/apps/${env.appId}/messages/${message.id}`);
    await expect(page.getByLabel('Payload')).toContainText('<img src=x');
    await expect(page.locator('main img, main script')).toHaveCount(0);
    await screenshot(page, 'message');

    expect(await page.evaluate(() => (window as { __hooklineXss?: number }).__hooklineXss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  } finally {
    await setReceiverMode('ok');
  }
});

test('a success is shown as the final attempt from its delivery row, and says its response was not kept', async ({
  page,
}) => {
  const env = e2eEnv();
  const message = await api<{ id: string }>('POST', `/apps/${env.appId}/messages`, {
    eventType: 'order.created',
    payload: { note: 'kept on the delivery' },
  });
  let deliveryId = '';
  await expect
    .poll(async () => {
      const detail = await api<{ deliveries: { id: string; state: string }[] }>(
        'GET',
        `/apps/${env.appId}/messages/${message.id}`,
      );
      deliveryId = detail.deliveries[0]?.id ?? '';
      return detail.deliveries[0]?.state;
    })
    .toBe('succeeded');
  await signIn(page);
  await page.goto(`${env.baseUrl}/apps/${env.appId}/deliveries/${deliveryId}`);
  const attempt = page.getByTestId('attempt').first();
  await expect(attempt).toContainText('succeeded');
  await expect(attempt).toContainText('200');
  await expect(attempt.getByLabel('Response body')).toContainText('not kept for successes');
  await expect(attempt.getByLabel('Request headers')).toContainText(`webhook-id: ${message.id}`);
  await expect(attempt.getByLabel('Request headers')).toContainText('webhook-signature: v1,');
});
