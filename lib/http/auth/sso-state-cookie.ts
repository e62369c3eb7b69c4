// The SSO attempt's state, nonce, PKCE verifier and return path, kept in the browser between the start
// and the callback: HttpOnly (no script reads the verifier), SameSite=Lax (sent on the provider's
// top-level redirect back, not on other sites' subrequests), Path=/api/auth/sso, ten minutes. It is
// signed with HMAC-SHA256 under a key derived from the client secret, so a value planted by someone
// else (a sibling subdomain can set cookies) is refused; the expiry inside is signed with it.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { SsoAttempt } from '../../domain/auth/sso/start-sso-sign-in';

export const SSO_COOKIE_NAME = 'hookline_sso';
const PATH = '/api/auth/sso';
export const SSO_ATTEMPT_TTL_SECONDS = 600;

interface SealedAttempt extends SsoAttempt {
  next: string;
  /** Unix seconds. */
  expiresAt: number;
}

function signingKey(clientSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', clientSecret, 'hookline', 'sso state cookie v1', 32));
}

export function ssoStateCookie(
  {
    attempt,
    next,
    clientSecret,
    now = Date.now(),
  }: { attempt: SsoAttempt; next: string; clientSecret: string; now?: number },
  secure: boolean,
): string {
  const sealed: SealedAttempt = { ...attempt, next, expiresAt: Math.floor(now / 1000) + SSO_ATTEMPT_TTL_SECONDS };
  const payload = Buffer.from(JSON.stringify(sealed)).toString('base64url');
  const signature = createHmac('sha256', signingKey(clientSecret)).update(payload).digest('base64url');
  return cookie(`${payload}.${signature}`, SSO_ATTEMPT_TTL_SECONDS, secure);
}

export function clearedSsoStateCookie(secure: boolean): string {
  return cookie('', 0, secure);
}

/** The attempt in the request's cookie, or null when absent, forged, tampered with or expired. */
export function readSsoStateCookie(
  cookieHeader: string | null,
  { clientSecret, now = Date.now() }: { clientSecret: string; now?: number },
): SealedAttempt | null {
  const value = cookieHeader
    ?.split(';')
    .map((pair) => pair.trim())
    .find((pair) => pair.startsWith(`${SSO_COOKIE_NAME}=`))
    ?.slice(SSO_COOKIE_NAME.length + 1);
  if (!value || value.length > 2000) return null;
  const [payload, signature] = value.split('.');
  if (!payload || !signature) return null;
  const expected = createHmac('sha256', signingKey(clientSecret)).update(payload).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const sealed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SealedAttempt;
    return sealed.expiresAt > now / 1000 ? sealed : null;
  } catch {
    return null;
  }
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${SSO_COOKIE_NAME}=${value}`, `Path=${PATH}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
