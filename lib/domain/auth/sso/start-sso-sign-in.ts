import { createHash } from 'node:crypto';
import type { OidcSettings } from '../../../runtime/api-settings';
import { randomToken } from '../hash-token';
import { discoverIssuer } from './discover-issuer';

export interface SsoAttempt {
  /** Echoed back by the provider; must equal the cookie's (CSRF on the callback). */
  state: string;
  /** Goes into the ID token; ties the token to this attempt. */
  nonce: string;
  /** PKCE (RFC 7636): only its S256 hash travels through the browser; the code is useless without it. */
  verifier: string;
}

/**
 * Where to send the browser to sign in at the issuer (authorization code flow with PKCE), and the
 * attempt's secrets, which the caller keeps in the browser's state cookie until the callback.
 */
export async function startSsoSignIn({
  oidc,
  redirectUri,
}: {
  oidc: OidcSettings;
  redirectUri: string;
}): Promise<{ authorizationUrl: string; attempt: SsoAttempt }> {
  const metadata = await discoverIssuer(oidc.issuer);
  const attempt = { state: randomToken(), nonce: randomToken(), verifier: randomToken() };
  const url = new URL(metadata.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', oidc.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', 'openid email');
  url.searchParams.set('state', attempt.state);
  url.searchParams.set('nonce', attempt.nonce);
  url.searchParams.set('code_challenge', createHash('sha256').update(attempt.verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return { authorizationUrl: url.toString(), attempt };
}
