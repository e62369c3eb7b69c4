import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { sendMessages, signIn } from './support/helpers';

// The dashboard runs under a nonce-based Content-Security-Policy (proxy.ts). Every page must still
// hydrate and draw its charts, and the browser must report no violation: a violation means a script
// or style the dashboard needs was blocked.
test('the dashboard works under its Content-Security-Policy, with no violation reported', async ({ page }) => {
  const env = e2eEnv();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
      violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Refused to execute: CSP ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });

  await signIn(page);
  const policy = (await page.request.get(`${env.baseUrl}/overview`)).headers()['content-security-policy'];
  expect(policy).toContain("frame-ancestors 'none'");

  await sendMessages(3);
  await page.goto(`${env.baseUrl}/overview?range=15m&appId=${env.appId}`);
  // Hydrated: the live query filled the numbers in, and Recharts drew its SVG.
  await expect(page.getByTestId('attempts-total')).not.toHaveText('—');
  await expect(page.getByTestId('latency-chart').locator('svg.recharts-surface').first()).toBeVisible();
  // The shell's logo (public/logo.svg) loaded: img-src allows the dashboard's own files.
  const logo = page.getByTestId('logo').locator('visible=true').first();
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // Client-side navigation loads further chunks under 'strict-dynamic'.
  await page.getByRole('link', { name: 'Endpoints' }).first().click();
  await page.waitForURL(/\/endpoints/);
  await page.goto(`${env.baseUrl}/apps/${env.appId}/endpoints/${env.endpointId}`);
  await expect(page.locator('svg.recharts-surface').first()).toBeVisible();
  expect(violations).toEqual([]);
});
