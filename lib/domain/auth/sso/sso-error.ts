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

export function ssoFailed(reason: SsoFailure, message: string): DomainError {
  return new DomainError('sso_failed', message, { reason });
}

export function ssoFailureOf(error: unknown): SsoFailure | null {
  if (!(error instanceof DomainError) || error.code !== 'sso_failed') return null;
  const reason = (error.details as { reason?: SsoFailure } | undefined)?.reason;
  return reason ?? 'provider_error';
}
