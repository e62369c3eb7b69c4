import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { screenshot, signIn } from './support/helpers';

test('a signed-out visitor is sent to sign-in, and a wrong password is refused', async ({ page }) => {
  const env = e2eEnv();
  await page.goto(`${env.baseUrl}/overview`);
  await expect(page).toHaveURL(/\/sign-in/);
  await screenshot(page, 'sign-in');
  await page.getByLabel('Email').fill(env.adminEmail);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // (Next.js keeps an empty route announcer with role=alert too; the form's own alert is the one with text.)
  await expect(page.getByRole('alert').filter({ hasText: 'password is wrong' })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
});

test('sign in, then sign out ends the session', async ({ page }) => {
  const env = e2eEnv();
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'hookline_session')!;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/sign-in/);
  await page.goto(`${env.baseUrl}/apps`);
  await expect(page).toHaveURL(/\/sign-in/);
  // Ended on the server, not only forgotten by the browser: the old cookie opens nothing any more.
  const withOldCookie = await fetch(`${env.baseUrl}/api/v1/apps`, {
    headers: { cookie: `hookline_session=${session.value}` },
  });
  expect(withOldCookie.status).toBe(401);
});

test('a page left open when the session ends goes to sign-in, and back to the same page after', async ({ page }) => {
  const env = e2eEnv();
  await signIn(page);
  const path = `/deliveries?appId=${env.appId}&state=dead`;
  await page.goto(`${env.baseUrl}${path}`);
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  // The session ends elsewhere (another tab signed out); this page's next live refresh is refused.
  await page.context().clearCookies();
  await page.waitForURL(/\/sign-in\?next=/, { timeout: 20_000 });
  await page.getByLabel('Email').fill(env.adminEmail);
  await page.getByLabel('Password').fill(env.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
  await expect(page.getByLabel('State')).toHaveValue('dead');
});

test('after sign-in the browser stays on the site, whatever `next` says', async ({ page }) => {
  const env = e2eEnv();
  // "/\127.0.0.1:9/x" is "//127.0.0.1:9/x" to a browser (a backslash is a slash in http URLs):
  // another site, here a closed port on loopback, so a failure goes nowhere else.
  await page.goto(`${env.baseUrl}/sign-in?next=${encodeURIComponent('/\\127.0.0.1:9/x')}`);
  await page.getByLabel('Email').fill(env.adminEmail);
  await page.getByLabel('Password').fill(env.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/overview');
  expect(new URL(page.url()).origin).toBe(new URL(env.baseUrl).origin);
});

test('a state change without the session, or from another origin, is refused', async ({ page }) => {
  const env = e2eEnv();
  const withoutSession = await fetch(`${env.baseUrl}/api/v1/apps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: env.baseUrl },
    body: JSON.stringify({ name: 'should not exist' }),
  });
  expect(withoutSession.status).toBe(401);

  await signIn(page);
  const cookies = await page.context().cookies();
  const session = cookies.find((cookie) => cookie.name === 'hookline_session');
  expect(session, 'the sign-in sets the session cookie').toBeTruthy();
  expect(session!.httpOnly).toBe(true);
  const crossOrigin = await fetch(`${env.baseUrl}/api/v1/apps`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `hookline_session=${session!.value}`,
      origin: 'https://evil.example',
    },
    body: JSON.stringify({ name: 'should not exist either' }),
  });
  expect(crossOrigin.status).toBe(403);
  expect(((await crossOrigin.json()) as { error: { code: string } }).error.code).toBe('csrf_rejected');

  // The same cookie from the dashboard's own pages works: the browser adds the right Origin.
  const sameOrigin = await page.evaluate(async () => {
    const response = await fetch('/api/v1/apps', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Created from the page' }),
    });
    return response.status;
  });
  expect([200, 201]).toContain(sameOrigin);
  const names = await page.evaluate(async () => {
    const response = await fetch('/api/v1/apps?limit=250');
    const body = (await response.json()) as { data: { name: string }[] };
    return body.data.map((app) => app.name);
  });
  expect(names).toContain('Created from the page');
  expect(names).not.toContain('should not exist');
  expect(names).not.toContain('should not exist either');
});
