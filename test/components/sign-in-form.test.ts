// The sign-in form's methods: both, SSO only (HOOKLINE_PASSWORD_SIGN_IN=false), password only; and the
// refusal of an SSO callback, as app/sign-in/page.tsx passes it. Rendered on the server, as the page is.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SignInForm } from '../../components/auth/sign-in-form';
import { ssoFailureMessage } from '../../lib/domain/auth/sso/sso-error';

function render(props: Parameters<typeof SignInForm>[0]): string {
  // createElement, not JSX: the test files are .ts (vitest.config.ts includes test/**/*.test.ts).
  return renderToStaticMarkup(
    createElement(QueryClientProvider, { client: new QueryClient() }, createElement(SignInForm, props)),
  );
}

describe('SignInForm', () => {
  it('offers SSO beside the password, returning to the page asked for', () => {
    const html = render({ next: '/apps?x=1', sso: true });
    expect(html).toContain('href="/api/auth/sso/start?next=%2Fapps%3Fx%3D1"');
    expect(html).toContain('Sign in with SSO');
    expect(html).toContain('type="password"');
  });

  it('shows only "Sign in with SSO" when password sign-in is off', () => {
    const html = render({ next: '/overview', sso: true, password: false });
    expect(html).toContain('Sign in with SSO');
    expect(html).not.toContain('type="password"');
    expect(html).not.toContain('<form');
  });

  it('shows no SSO button when SSO is not configured', () => {
    expect(render({ next: '/overview' })).not.toContain('Sign in with SSO');
  });

  it('says why an SSO sign-in was refused, for known reasons only', () => {
    const message = ssoFailureMessage('unknown_member');
    expect(message).toMatch(/not a member/);
    expect(render({ next: '/overview', sso: true, ssoError: message })).toContain('role="alert"');
    // Whatever else the address bar says is not shown.
    expect(ssoFailureMessage('<script>alert(1)</script>')).toBeNull();
    expect(ssoFailureMessage(undefined)).toBeNull();
  });
});
