import { expect, test } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../lib/domain/auth/totp';
import { e2eEnv } from './support/env';
import { createPool } from '../lib/database/pg';
import { createApp, expectSignedOut, inviteMember, joinByInvitation, screenshot, signIn } from './support/helpers';

// The owner invites a viewer by link; the viewer joins, signs in with its own password, sees no write
// action anywhere it looks, and the server refuses the writes all the same when they are sent by hand.
test('invite, accept, sign in as a viewer: no write actions, and the server refuses them', async ({ browser }) => {
  const env = e2eEnv();
  const email = `viewer-${Date.now()}@hookline.test`;
  const password = 'viewer password, long enough';

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner);
  await owner.getByRole('link', { name: 'Members' }).click();
  await expect(owner.getByRole('heading', { name: 'Members' })).toBeVisible();
  await owner.getByRole('button', { name: 'Invite member' }).click();
  const dialog = owner.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption('viewer');
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const url = (await owner.getByTestId('invitation-url').textContent())!;
  expect(url).toMatch(/\/invite#[A-Za-z0-9_-]{43}$/);
  await screenshot(owner, 'members-invite');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(owner.getByTestId('invitations-table')).toContainText(email);

  // A fresh browser: nobody signed in.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(url);
  await viewer.getByLabel('New password').fill(password);
  await viewer.getByLabel('Repeat password').fill(password);
  await viewer.getByRole('button', { name: 'Join' }).click();
  await viewer.waitForURL(/\/overview/);
  await expect(viewer.getByTestId('member-role')).toHaveText('viewer');

  // The link worked once.
  const again = await fetch(`${env.baseUrl}/api/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(url).hash.slice(1), password }),
  });
  expect(again.status).toBe(404);

  // Signs out, and back in with the password it chose.
  await viewer.getByRole('button', { name: 'Sign out' }).click();
  await viewer.waitForURL(/\/sign-in/);
  await viewer.getByLabel('Email').fill(email);
  await viewer.getByLabel('Password').fill(password);
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await viewer.waitForURL(/\/overview/);

  // No write action on the pages it can read.
  await expect(viewer.getByRole('link', { name: 'Members' })).toHaveCount(0);
  await expect(viewer.getByRole('link', { name: 'Operations' })).toHaveCount(0);
  await viewer.goto(`${env.baseUrl}/apps`);
  await expect(viewer.getByRole('heading', { name: 'Apps' })).toBeVisible();
  await expect(viewer.getByText(env.appName).first()).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'New app' })).toHaveCount(0);
  await viewer.goto(`${env.baseUrl}/apps/${env.appId}/endpoints`);
  await expect(viewer.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'New endpoint' })).toHaveCount(0);
  await viewer.goto(`${env.baseUrl}/apps/${env.appId}/endpoints/${env.endpointId}`);
  await expect(viewer.getByText(env.endpointId).first()).toBeVisible();
  for (const action of ['Edit', 'Disable', 'Send test event', 'Show secret', 'Recover…']) {
    await expect(viewer.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  }
  await viewer.goto(`${env.baseUrl}/api-keys`);
  await expect(viewer.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'New API key' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await screenshot(viewer, 'viewer-api-keys');
  // A page for owners only is refused by the server, not just left out of the menu.
  await viewer.goto(`${env.baseUrl}/members`);
  await expect(viewer.getByTestId('forbidden')).toContainText('The viewer role may not open this page');
  await expect(viewer.getByTestId('members-table')).toHaveCount(0);
  await viewer.goto(`${env.baseUrl}/operations`);
  await expect(viewer.getByTestId('forbidden')).toContainText('operations.manage');

  // Sent by hand from the viewer's own signed-in page, the writes are refused with 403 naming the role.
  const refused = await viewer.evaluate(
    async ({ appId, endpointId }) => {
      const send = async (method: string, path: string, body: unknown) => {
        const response = await fetch(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return {
          status: response.status,
          body: (await response.json()) as { error: { code: string; message: string } },
        };
      };
      return [
        await send('POST', '/api/v1/apps', { name: 'by a viewer' }),
        await send('POST', `/api/v1/apps/${appId}/endpoints/${endpointId}/disable`, {}),
        await send('POST', '/api/v1/api-keys', { name: 'by a viewer' }),
        await send('POST', '/api/v1/invitations', { email: 'friend@hookline.test', role: 'owner' }),
      ];
    },
    { appId: env.appId, endpointId: env.endpointId },
  );
  for (const answer of refused) {
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('forbidden');
    expect(answer.body.error.message).toMatch(/^The viewer role may not \w+: it needs the "[a-z._]+" permission/);
  }
  // Nothing changed: the endpoint is still enabled, no app by that name.
  const apps = await fetch(`${env.baseUrl}/api/v1/apps?limit=250`, {
    headers: { authorization: `Bearer ${env.apiKey}` },
  });
  expect(JSON.stringify(await apps.json())).not.toContain('by a viewer');
  const endpoint = await fetch(`${env.baseUrl}/api/v1/apps/${env.appId}/endpoints/${env.endpointId}`, {
    headers: { authorization: `Bearer ${env.apiKey}` },
  });
  expect(((await endpoint.json()) as { enabled: boolean }).enabled).toBe(true);

  // The owner sees the new member with its role, and can end its sessions by removing it.
  await owner.reload();
  const row = owner.getByTestId('member-row').filter({ hasText: email });
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('viewer');
  await row.getByRole('button', { name: 'Remove' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(row).toHaveCount(0);
  await expectSignedOut(viewer);

  await ownerContext.close();
  await viewerContext.close();
});

test('my sessions: another browser is listed and revoked; sign out everywhere ends this one', async ({ browser }) => {
  const first = await (await browser.newContext()).newPage();
  const second = await (await browser.newContext()).newPage();
  await signIn(first);
  await signIn(second);
  await first.getByRole('link', { name: 'Account' }).click();
  await expect(first.getByRole('heading', { name: 'Account' })).toBeVisible();
  const rows = first.getByTestId('session-row');
  // Loaded once this browser's own row is there; the other browser's is listed beside it.
  await expect(rows.filter({ hasText: 'this one' })).toHaveCount(1);
  expect(await rows.count()).toBeGreaterThanOrEqual(2);
  await screenshot(first, 'account-sessions');
  // Revoke every other session; the second browser is among them.
  while ((await first.getByRole('button', { name: 'Revoke' }).count()) > 0) {
    const before = await rows.count();
    await first.getByRole('button', { name: 'Revoke' }).first().click();
    await expect(rows).toHaveCount(before - 1);
  }
  await expectSignedOut(second);

  await first.getByRole('button', { name: 'Sign out everywhere' }).click();
  await first.waitForURL(/\/sign-in/);
  await expectSignedOut(first, '/overview');
});

test('a second factor: enrolled on the Account page, then asked for at sign-in', async ({ browser, page }) => {
  const env = e2eEnv();
  const email = `totp-${Date.now()}@hookline.test`;
  const password = 'totp member password';
  // A member of its own (the owner's sign-in is shared by every spec), invited through the API as the owner.
  await signIn(page);
  const url = await inviteMember(page, { email, role: 'developer' });
  const member = await joinByInvitation(browser, url, password);

  await member.goto(`${env.baseUrl}/account`);
  await member.getByRole('button', { name: 'Set up a second factor' }).click();
  const secret = (await member.getByTestId('totp-secret').textContent())!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(member, 'account-totp');
  const key = base32Decode(secret);
  const step = totpStep(Date.now());
  await member.getByLabel('Code').fill(hotp(key, step));
  await member.getByRole('button', { name: 'Turn on' }).click();
  await expect(member.getByTestId('totp-state')).toContainText('on');

  await member.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await member.waitForURL(/\/sign-in/);
  await member.getByLabel('Email').fill(email);
  await member.getByLabel('Password').fill(password);
  await member.getByRole('button', { name: 'Sign in' }).click();
  const code = member.getByLabel('Authenticator code');
  await expect(code).toBeVisible();
  // The code just used is refused; the next step's (one step of skew is allowed) is not.
  await code.fill(hotp(key, step));
  await member.getByRole('button', { name: 'Sign in' }).click();
  await expect(member.getByRole('alert').filter({ hasText: 'used already' })).toBeVisible();
  await code.fill(hotp(key, step + 1));
  await member.getByRole('button', { name: 'Sign in' }).click();
  await member.waitForURL(/\/overview/);
  await expect(member.getByTestId('member-role')).toHaveText('developer');
});

test('a viewer held to two apps sees both on the Overview and Issues pages, never a third app', async ({
  browser,
  page,
}) => {
  const env = e2eEnv();
  const email = `held-${Date.now()}@hookline.test`;
  const password = 'held member password';
  const [mine, also, theirs] = [
    await createApp({ name: `E2E Scoped Mine ${Date.now()}` }),
    await createApp({ name: `E2E Scoped Also ${Date.now()}` }),
    await createApp({ name: `E2E Scoped Theirs ${Date.now()}` }),
  ];
  const pool = createPool(env.databaseUrl);
  try {
    for (const app of [mine, also, theirs]) {
      await pool.query(
        `INSERT INTO hookline.issues (app_id, subject_id, endpoint_id, error_class, title)
         VALUES ($1, $2, $2, 'http_5xx', $3)`,
        [app.appId, app.endpointId, `held-issue ${app.appName}`],
      );
    }
  } finally {
    await pool.end();
  }
  await signIn(page);
  const url = await inviteMember(page, { email, role: 'viewer', appIds: [mine.appId, also.appId] });
  const member = await (await browser.newContext()).newPage();
  await member.goto(url);
  await member.getByLabel('New password').fill(password);
  await member.getByLabel('Repeat password').fill(password);
  // The overview reads the stats of both its apps together (it answered 400 before, asking for one).
  const stats = member.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/stats');
  await member.getByRole('button', { name: 'Join' }).click();
  await member.waitForURL(/\/overview/);
  expect((await stats).status()).toBe(200);
  await expect(member.getByTestId('queue-dead')).toBeVisible();
  await expect(member.getByText('Could not load this')).toHaveCount(0);

  const counts = member.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/issues/counts');
  await member.goto(`${env.baseUrl}/issues?status=all`);
  expect((await counts).status()).toBe(200);
  const rows = member.getByTestId('issue-row');
  await expect(rows.filter({ hasText: 'held-issue' })).toHaveCount(2);
  await expect(rows.filter({ hasText: mine.appName })).toHaveCount(1);
  await expect(rows.filter({ hasText: also.appName })).toHaveCount(1);
  await expect(rows.filter({ hasText: theirs.appName })).toHaveCount(0);
  await expect(member.getByRole('tab', { name: /Open/ })).toContainText('2');
  await expect(member.getByText('Could not load this')).toHaveCount(0);
});
