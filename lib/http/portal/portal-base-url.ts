import { getApiSettings } from '../../runtime/api-settings';
import { loadConfig } from '../../runtime/env';
import { PORTAL_PATH } from './portal-cookie';

/**
 * The origin to put in portal URLs: HOOKLINE_PUBLIC_URL when set (the operator's backend may call an
 * internal address customers cannot reach), else the origin the creating request came to, as the
 * proxy in front says when HOOKLINE_TRUST_PROXY is on.
 */
export function portalBaseUrl(request: Request): string {
  const configured = loadConfig().HOOKLINE_PUBLIC_URL;
  if (configured) return configured;
  const url = new URL(request.url);
  let protocol = url.protocol.slice(0, -1);
  // Next.js builds request.url from the address it listens on ("localhost"), not from the Host the
  // caller used; the caller's Host is the address it reached us at, and the link goes back to it.
  let host = request.headers.get('host') ?? url.host;
  if (getApiSettings().trustProxy) {
    protocol = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || protocol;
    host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || host;
  }
  return `${protocol}://${host}`;
}

/** Where a customer opens the portal with a session's token (app/portal/open trades it for the cookie). */
export function portalOpenUrl(request: Request): string {
  return new URL(`${PORTAL_PATH}/open`, portalBaseUrl(request)).toString();
}
