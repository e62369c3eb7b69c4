// The portal session cookie. The URL an operator hands out carries a token once; /portal/open trades
// it for this cookie and redirects, so the token leaves the address bar, history and Referer at once.
//
// Path=/portal: the admin dashboard and the REST API never receive it, and the portal never receives
// more than it needs (the admin cookie has Path=/, which is why portal requests ignore it:
// lib/http/auth/authenticate-request.ts).
//
// SameSite: the portal is meant to live in an iframe on the operator's own site, which is another
// site. Browsers send SameSite=Lax and Strict cookies only when the top-level site is ours, so an
// embedded portal would never be signed in. Over https the cookie is therefore SameSite=None; Secure
// (None requires Secure) plus Partitioned (CHIPS): the browser keys it by the embedding site, so a
// portal framed by site X never shares a cookie jar with one framed by site Y or opened directly,
// and browsers that block unpartitioned third-party cookies still keep it. Cross-site requests carry
// a SameSite=None cookie, so every state change is checked for our Origin (assertSameOrigin), as the
// dashboard's are. Over plain http (local development) Secure cookies cannot be set, so the cookie is
// SameSite=Lax there: the portal works opened directly and framed by a same-site page, not framed
// across sites.
export const PORTAL_COOKIE_NAME = 'hookline_portal';
export const PORTAL_PATH = '/portal';

export function portalCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${PORTAL_COOKIE_NAME}=${token}`, `Path=${PORTAL_PATH}`, 'HttpOnly', `Max-Age=${maxAgeSeconds}`];
  parts.push(...(secure ? ['SameSite=None', 'Secure', 'Partitioned'] : ['SameSite=Lax']));
  return parts.join('; ');
}

export function clearedPortalCookie(secure: boolean): string {
  return portalCookie('', 0, secure);
}

/** The portal token from a Cookie header, or undefined. */
export function readPortalCookie(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const index = pair.indexOf('=');
    if (index === -1) continue;
    if (pair.slice(0, index).trim() === PORTAL_COOKIE_NAME) return pair.slice(index + 1).trim() || undefined;
  }
  return undefined;
}

/** Whether a request is for the portal (its pages and its API below /portal/api). */
export function isPortalPath(pathname: string): boolean {
  return pathname === PORTAL_PATH || pathname.startsWith(`${PORTAL_PATH}/`);
}
