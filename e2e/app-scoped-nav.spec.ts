import { expect, test } from '@playwright/test';
import { e2eEnv } from './support/env';
import { createApp, inviteMember, joinByInvitation, signIn } from './support/helpers';

// A member held to one app is refused every page that concerns the whole deployment, whatever its role
// allows (lib/http/permissions.ts, pageRefusal): the menu leaves those pages out, and their server
// refuses them all the same when the address is typed. An admin, so the role alone would allow API keys
// and the operational endpoints: only the hold on one app takes them away. It keeps Operations for its
// app's alert rules, without the deployment's operational endpoints (which answered it 403 before).
test('an admin held to one app sees no API keys in the menu, its page refuses it, and Operations shows only alert rules', async ({
  browser,
  page,
}) => {
  const env = e2eEnv();
  const email = `nav-held-${Date.now()}@hookline.test`;
  const password = 'nav held admin password';
  const held = await createApp({ name: `E2E Nav Held ${Date.now()}` });
  await signIn(page);
  // The owner sees every item.
  const ownerNav = page.getByRole('navigation', { name: 'Main' });
  for (const item of ['API keys', 'Operations', 'Audit log', 'Members']) {
    await expect(ownerNav.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  const url = await inviteMember(page, { email, role: 'admin', appIds: [held.appId] });
  const member = await joinByInvitation(browser, url, password);
  await expect(member.getByTestId('member-role')).toHaveText('admin');

  const nav = member.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Deliveries', exact: true })).toBeVisible();
  // The audit log and the alert rules are per app (their operations are not deployment-wide): they stay.
  await expect(nav.getByRole('link', { name: 'Audit log', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Operations', exact: true })).toBeVisible();
  for (const item of ['API keys', 'Members']) {
    await expect(nav.getByRole('link', { name: item, exact: true })).toHaveCount(0);
  }

  // Typed by hand, the page is refused by its server: no list, no button.
  await member.goto(`${env.baseUrl}/api-keys`);
  await expect(member.getByTestId('forbidden')).toContainText('held to some apps');
  await expect(member.getByRole('button', { name: 'New API key' })).toHaveCount(0);
  // Operations: its app's alert rules, not the deployment's operational endpoints, and no 403 on the page.
  const refused: string[] = [];
  member.on('response', (response) => {
    if (response.status() === 403) refused.push(new URL(response.url()).pathname);
  });
  await member.goto(`${env.baseUrl}/operations`);
  await expect(member.getByRole('heading', { name: 'Alert rules' })).toBeVisible();
  await expect(member.getByRole('heading', { name: 'Operational endpoints' })).toHaveCount(0);
  await expect(member.getByTestId('forbidden')).toHaveCount(0);
  expect(refused).toEqual([]);
  await member.goto(`${env.baseUrl}/members`);
  await expect(member.getByTestId('forbidden')).toContainText('The admin role may not open this page');
  // The audit log opens.
  await member.goto(`${env.baseUrl}/audit`);
  await expect(member.getByTestId('forbidden')).toHaveCount(0);

  // And the API the page would call answers 403, as before.
  const listed = await member.evaluate(async () => {
    const response = await fetch('/api/v1/api-keys');
    return { status: response.status, body: (await response.json()) as { error: { code: string } } };
  });
  expect(listed.status).toBe(403);
  expect(listed.body.error.code).toBe('key_not_allowed');
});
