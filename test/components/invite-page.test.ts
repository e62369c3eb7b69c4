// The invitation page by the deployment's sign-in methods (app/invite/page.tsx, rendered on the server as
// Next.js renders it): with HOOKLINE_PASSWORD_SIGN_IN=false it offers "Sign in with SSO" and no password
// to choose (the API would refuse one: test/api/sso.test.ts); with passwords on, the password form.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import InvitePage from '../../app/invite/page';
import { resetApiSettings } from '../../lib/runtime/api-settings';

const SSO = {
  HOOKLINE_OIDC_ISSUER: 'https://id.example.test',
  HOOKLINE_OIDC_CLIENT_ID: 'hookline',
  HOOKLINE_OIDC_CLIENT_SECRET: 'a client secret',
};
const NAMES = [...Object.keys(SSO), 'HOOKLINE_PASSWORD_SIGN_IN'];
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));

function renderWith(env: Record<string, string>): string {
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
  resetApiSettings();
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(InvitePage)),
  );
}

afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetApiSettings();
});

describe('the invitation page', () => {
  it('with passwords off: "Sign in with SSO", and no password form', () => {
    const html = renderWith({ ...SSO, HOOKLINE_PASSWORD_SIGN_IN: 'false' });
    expect(html).toContain('Sign in with SSO');
    expect(html).toContain('href="/api/auth/sso/start?next=%2Foverview"');
    expect(html).toContain('Passwords are turned off here');
    expect(html).not.toContain('type="password"');
    expect(html).not.toContain('<form');
    expect(html).not.toContain('choose a password');
  });

  it('with passwords on: the password form, and SSO beside it when configured', () => {
    const withSso = renderWith({ ...SSO, HOOKLINE_PASSWORD_SIGN_IN: 'true' });
    expect(withSso).toContain('type="password"');
    expect(withSso).toContain('Join with SSO instead');
    for (const name of Object.keys(SSO)) delete process.env[name];
    const passwordOnly = renderWith({ HOOKLINE_PASSWORD_SIGN_IN: 'true' });
    expect(passwordOnly).toContain('type="password"');
    expect(passwordOnly).not.toContain('SSO');
  });
});
