import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { screenshot, sendMessages, setReceiverMode, signIn, statNumber } from './support/helpers';

test('overview numbers and charts move while events flow', async ({ page }) => {
  const env = e2eEnv();
  await setReceiverMode('ok');
  await signIn(page);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${env.appId}`);
  await expect(page.getByTestId('attempts-total')).toBeVisible();
  const before = await statNumber(page, 'attempts-total');

  await sendMessages(12);
  // No reload: the page refreshes itself every few seconds.
  await expect.poll(() => statNumber(page, 'attempts-total'), { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 12);
  await expect(page.getByTestId('success-rate')).not.toHaveText('—');
  await expect(page.getByTestId('latency-p50')).toContainText('ms');
  // Recharts draws a green bar for the successes of each bucket that has some.
  await expect(
    page.getByTestId('throughput-chart').locator('.recharts-bar-rectangle path[fill="#16a34a"]').first(),
  ).toBeVisible();
  // One line per percentile, drawn: as dots while fewer than three minutes have measurements, as curves
  // after (other specs' traffic to this app in earlier minutes, on a slow run, makes it curves).
  await expect(page.getByTestId('latency-chart').locator('.recharts-line')).toHaveCount(3);
  await expect(
    page
      .getByTestId('latency-chart')
      // A curve through one point is a bare "M x,y Z", drawn invisible; a real one has segments.
      .locator('.recharts-line-dot, .recharts-line-curve[d*="C"], .recharts-line-curve[d*="L"]')
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('status-codes')).toContainText('200');
  await screenshot(page, 'overview-with-traffic');
});
