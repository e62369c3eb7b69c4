import { expect, test } from '@playwright/test';
import { setProviderAccount } from '../test/support/oidc-provider';
import { e2eEnv } from './support/env';
import { screenshot, signIn } from './support/helpers';

// "Sign in with SSO" through the browser, against the real OpenID provider the global setup started:
// the provider signs in whichever account the test set, so the browser only follows redirects.
test('an invited member signs in with SSO; an unknown one sees why it cannot', async ({ browser }) => {
  const env = e2eEnv();
  const email = `sso-${Date.now()}@hookline.test`;

  // The owner invites a developer; the invited person never opens the link, it uses SSO instead.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner);
  const invited = await owner.evaluate(
    async ({ email }) =>
      (
        await fetch('/api/v1/invitations', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, role: 'developer' }),
        })
      ).status,
    { email },
  );
  expect(invited).toBe(201);

  await setProviderAccount(env.oidcIssuer, { sub: 'sso-e2e', email: email.toUpperCase(), emailVerified: true });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.baseUrl}/apps`);
  await page.waitForURL(/\/sign-in/);
  await screenshot(page, 'sso-sign-in');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  // Back from the provider, signed in, on the page first asked for.
  await page.waitForURL(/\/apps$/);
  await expect(page.getByTestId('member-role')).toHaveText('developer');
  const cookies = await context.cookies(env.baseUrl);
  expect(cookies.find((cookie) => cookie.name === 'hookline_session')?.httpOnly).toBe(true);
  expect(cookies.find((cookie) => cookie.name === 'hookline_sso')).toBeUndefined();

  // Someone the provider knows but Hookline does not (no invitation, no default role).
  await setProviderAccount(env.oidcIssuer, {
    sub: 'sso-stranger',
    email: 'stranger@hookline.test',
    emailVerified: true,
  });
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await stranger.goto(`${env.baseUrl}/sign-in`);
  await stranger.getByRole('link', { name: 'Sign in with SSO' }).click();
  await stranger.waitForURL(/\/sign-in\?sso_error=unknown_member/);
  await expect(stranger.getByRole('alert').filter({ hasText: 'not a member of this Hookline' })).toBeVisible();
  await screenshot(stranger, 'sso-refused');
  // Not signed in: the dashboard still sends it to the sign-in page.
  await stranger.goto(`${env.baseUrl}/overview`);
  await stranger.waitForURL(/\/sign-in/);
  await Promise.all([ownerContext.close(), context.close(), strangerContext.close()]);
});
