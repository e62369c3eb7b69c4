import { timingSafeEqual } from 'node:crypto';
import { getApiSettings } from '../../runtime/api-settings';
import { createLogger } from '../../runtime/log';
import { finishSsoSignIn } from '../../domain/auth/sso/finish-sso-sign-in';
import { startSsoSignIn } from '../../domain/auth/sso/start-sso-sign-in';
import { ssoFailed, ssoFailureOf, type SsoFailure } from '../../domain/auth/sso/sso-error';
import { portalBaseUrl } from '../portal/portal-base-url';
import { isSecureRequest } from './authenticate-request';
import { sameSitePath } from './same-site-path';
import { clientInfo } from './client-info';
import { sessionCookie } from './session-cookie';
import { clearedSsoStateCookie, readSsoStateCookie, ssoStateCookie } from './sso-state-cookie';

const log = createLogger({ component: 'sso' });

/**
 * Where the provider sends the browser back: HOOKLINE_PUBLIC_URL when set, else the origin the browser
 * reached us at. That is the portal links' rule (portalBaseUrl: Next.js builds request.url from the
 * address it listens on, so the Host header, or a trusted proxy's X-Forwarded-*, names it). A forged
 * Host gains nothing: the provider redirects only to the URIs registered for the client.
 */
export function ssoRedirectUri(request: Request): string {
  return `${portalBaseUrl(request).replace(/\/$/, '')}/api/auth/sso/callback`;
}

/** GET /api/auth/sso/start: a redirect to the provider, with the attempt in the state cookie. */
export async function startSsoResponse(request: Request, { next }: { next?: string }): Promise<Response> {
  const oidc = getApiSettings().oidc;
  if (!oidc) return toSignInPage('not_configured', isSecureRequest(request));
  try {
    const { authorizationUrl, attempt } = await startSsoSignIn({ oidc, redirectUri: ssoRedirectUri(request) });
    const cookie = ssoStateCookie(
      { attempt, next: sameSitePath(next), clientSecret: oidc.clientSecret },
      isSecureRequest(request),
    );
    return redirect(authorizationUrl, [cookie]);
  } catch (error) {
    return failure(request, error);
  }
}

/**
 * GET /api/auth/sso/callback: the provider's answer. Every refusal lands on the sign-in page with a
 * reason (never a stack trace); success sets the session cookie and goes where the sign-in started.
 */
export async function finishSsoResponse(
  request: Request,
  query: { code?: string; state?: string; error?: string },
): Promise<Response> {
  const settings = getApiSettings();
  const oidc = settings.oidc;
  const secure = isSecureRequest(request);
  if (!oidc) return toSignInPage('not_configured', secure);
  try {
    const attempt = readSsoStateCookie(request.headers.get('cookie'), { clientSecret: oidc.clientSecret });
    // Checked before the provider's error, so a forged callback cannot even choose the message shown.
    if (!attempt || !query.state || !sameString(query.state, attempt.state)) {
      throw ssoFailed('state_invalid', 'The callback does not belong to a sign-in this browser started');
    }
    if (query.error || !query.code) {
      throw ssoFailed('provider_error', `The provider refused the sign-in: ${query.error ?? 'no code'}`);
    }
    const { token, userId, created } = await finishSsoSignIn({
      oidc,
      redirectUri: ssoRedirectUri(request),
      code: query.code,
      verifier: attempt.verifier,
      nonce: attempt.nonce,
      ttlHours: settings.sessionTtlHours,
      ...clientInfo(request),
    });
    log.info('signed in by SSO', { userId, created });
    return redirect(sameSitePath(attempt.next), [
      sessionCookie(token, settings.sessionTtlHours * 3600, secure),
      clearedSsoStateCookie(secure),
    ]);
  } catch (error) {
    return failure(request, error);
  }
}

function failure(request: Request, error: unknown): Response {
  const reason = ssoFailureOf(error);
  // The details (which claim failed, what the provider said) go to the log for the operator; the
  // browser gets a fixed sentence per reason.
  if (reason) log.warn('SSO sign-in refused', { reason, message: (error as Error).message });
  else log.error('SSO sign-in failed', { error });
  return toSignInPage(reason ?? 'provider_error', isSecureRequest(request));
}

function toSignInPage(reason: SsoFailure, secure: boolean): Response {
  return redirect(`/sign-in?sso_error=${reason}`, [clearedSsoStateCookie(secure)]);
}

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  // 303: the browser follows with a GET whatever brought it here.
  return new Response(null, { status: 303, headers });
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
