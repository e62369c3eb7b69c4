// A first attempt being sent has no delivery row until its outcome is written (migration
// 20261206090000_first_attempts_written_once). While a slow endpoint holds it, the message's page lists
// it as delivering and its own page says it is being sent; once the endpoint answers, it has succeeded.
import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { HOLD_MS, HOLD_PATH } from './support/receiver';
import { createApp, sendMessages, signIn } from './support/helpers';

test('a first attempt a slow endpoint holds shows as being sent on its message and its own page, then succeeded', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const app = await createApp({ name: 'E2E Slow Receiver', endpointPath: `${HOLD_PATH}slow-receiver` });
  await signIn(page);
  const [messageId] = await sendMessages(1, { appId: app.appId });
  await page.goto(`${e2eEnv().baseUrl}/apps/${app.appId}/messages/${messageId}`);
  // The endpoint answers only after HOLD_MS: until then the delivery is the attempt in flight.
  const row = page.getByRole('row').filter({ hasText: 'Delivering' });
  await expect(row).toBeVisible({ timeout: HOLD_MS / 2 });
  await row.getByRole('link').first().click();
  await expect(page.getByText('Being sent now')).toBeVisible();
  await expect(page.getByText('Not attempted yet')).toHaveCount(0);
  // The page refreshes itself: the outcome replaces the attempt in flight.
  await expect(page.getByText('Being sent now')).toHaveCount(0, { timeout: HOLD_MS * 3 });
  await expect(page.getByText('Succeeded').first()).toBeVisible();
});
