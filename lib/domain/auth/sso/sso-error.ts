import { DomainError } from '../../errors';

// Why an SSO sign-in was refused. The callback shows the sign-in page with a fixed sentence per reason
// (app/sign-in/page.tsx): nothing the provider or the address bar sent is echoed to the page.
export const SSO_FAILURES = [
  'not_configured',
  // No state cookie, a forged or expired one, or a state that differs from the cookie's.
  'state_invalid',
  // The provider answered with an error, or the code exchange or the ID token did not hold up.
  'provider_error',
  'email_unverified',
  'unknown_member',
] as const;
export type SsoFailure = (typeof SSO_FAILURES)[number];

/** What the sign-in page says for each reason; the details are in the server's log. */
export const SSO_FAILURE_MESSAGES: Record<SsoFailure, string> = {
  not_configured: 'Single sign-on is not set up on this Hookline.',
  state_invalid: 'This sign-in link expired or was started in another browser. Start again with “Sign in with SSO”.',
  provider_error:
    'The identity provider did not complete the sign-in. Try again; if it persists, ask an owner to check the server log.',
  email_unverified: 'Your identity provider has not verified your email address, so it cannot be matched to a member.',
  unknown_member: 'Your email address is not a member of this Hookline. Ask an owner for an invitation.',
};

export function ssoFailureMessage(reason: string | undefined): string | null {
  return reason && (SSO_FAILURES as readonly string[]).includes(reason)
    ? SSO_FAILURE_MESSAGES[reason as SsoFailure]
    : null;
}

export function ssoFailed(reason: SsoFailure, message: string): DomainError {
  return new DomainError('sso_failed', message, { reason });
}

export function ssoFailureOf(error: unknown): SsoFailure | null {
  if (!(error instanceof DomainError) || error.code !== 'sso_failed') return null;
  const reason = (error.details as { reason?: SsoFailure } | undefined)?.reason;
  return reason ?? 'provider_error';
}
