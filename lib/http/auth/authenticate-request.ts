import { getApiSettings } from '../../runtime/api-settings';
import { HttpError, unauthorized } from '../http-error';
import { authenticatePortalRequest } from '../portal/authenticate-portal-request';
import { isPortalPath } from '../portal/portal-cookie';
import { authenticateApiKey } from '../../domain/auth/authenticate-api-key';
import { getAdminSession, type AdminSessionInfo } from '../../domain/auth/get-admin-session';
import type { Principal } from '../../domain/auth/principal';
import { readSessionCookie } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bearer key first, else the admin session cookie. A cookie is sent by the browser on its own, so a
 * cookie-authenticated request that changes state must prove it comes from our own pages: an Origin
 * equal to ours, or Sec-Fetch-Site: same-origin. Bearer keys are never sent implicitly and need no check.
 */
export async function authenticateRequest(request: Request): Promise<Principal> {
  // The customer portal's API (app/portal/api) is the REST API seen through a portal session only.
  if (isPortalPath(new URL(request.url).pathname)) return authenticatePortalRequest(request);
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const principal = match ? await authenticateApiKey(match[1]!) : null;
    if (!principal) throw challenge('The API key is missing, malformed, unknown or revoked', 'invalid_token');
    return principal;
  }
  const token = readSessionCookie(request.headers.get('cookie'));
  const session = await getAdminSession(token);
  if (!session) throw challenge('Send an API key as "Authorization: Bearer hl_..." or sign in.');
  if (!SAFE_METHODS.has(request.method.toUpperCase())) assertSameOrigin(request);
  return memberPrincipal(session);
}

/** A member's principal. Held to exactly one app, it carries that app as appId, like an app-limited key. */
export function memberPrincipal(session: AdminSessionInfo): Principal {
  return {
    kind: 'admin',
    id: `user:${session.userId}`,
    userId: session.userId,
    sessionId: session.sessionId,
    email: session.email,
    role: session.role,
    appIds: session.appIds,
    appId: session.appIds.length === 1 ? session.appIds[0]! : null,
  };
}

/** A 401 names the scheme that would be accepted (RFC 9110 WWW-Authenticate, RFC 6750 for bearer tokens). */
function challenge(message: string, bearerError?: 'invalid_token'): HttpError {
  const value = `Bearer realm="hookline"${bearerError ? `, error="${bearerError}"` : ''}`;
  return unauthorized(message, { 'WWW-Authenticate': value });
}

export function assertSameOrigin(request: Request): void {
  if (request.headers.get('sec-fetch-site') === 'same-origin') return;
  const origin = request.headers.get('origin');
  if (origin && ownOrigins(request).includes(origin)) return;
  throw new HttpError(
    'csrf_rejected',
    'A signed-in request that changes something must come from the dashboard (Origin header equal to this site)',
  );
}

/** The request URL's origin, and the one its Host header names (they differ behind some proxies). */
function ownOrigins(request: Request): string[] {
  const url = new URL(request.url);
  const origins = [url.origin];
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (host) {
    const protocol = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || url.protocol.slice(0, -1);
    origins.push(`${protocol}://${host}`);
  }
  return origins;
}

/**
 * Whether the browser reached us over https, which makes the session cookie Secure: the request's own
 * protocol, or, with HOOKLINE_TRUST_PROXY, what the proxy in front says in X-Forwarded-Proto.
 * Untrusted, that header is the client's word and counts for nothing (scripts/start.ts also drops it
 * on arrival, so Next.js does not build request URLs from it).
 */
export function isSecureRequest(request: Request): boolean {
  if (getApiSettings().trustProxy) {
    const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === 'https';
  }
  return new URL(request.url).protocol === 'https:';
}
