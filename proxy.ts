// Runs before every dashboard page (Next.js 16's proxy, formerly middleware): a fresh CSP nonce per
// page. Next.js reads the nonce from the request's Content-Security-Policy header and puts it on the
// scripts it renders; the same policy goes out on the response. The API and static files are not
// matched: they run no inline script, and next.config.ts gives them the other security headers.
//
// Customer portal pages (/portal) may be framed by the origins their app allows: the session cookie
// names the app, so those pages cost one indexed lookup here. Without a live session, or with no
// origin allowed, they are as unframeable as the dashboard. The same lookup names the app's logo, whose
// origin alone is added to img-src.
import { NextResponse, type NextRequest } from 'next/server';
import { findPortalSession } from './lib/domain/portal/find-portal-session';
import { isPortalPath, PORTAL_COOKIE_NAME } from './lib/http/portal/portal-cookie';
import { contentSecurityPolicy, createNonce } from './lib/http/content-security-policy';
import { REQUESTED_PATH_HEADER } from './lib/http/auth/requested-path';

export async function proxy(request: NextRequest) {
  const nonce = createNonce();
  const portal = isPortalPath(request.nextUrl.pathname);
  const session = portal ? await findPortalSession(request.cookies.get(PORTAL_COOKIE_NAME)?.value) : null;
  const frameAncestors = session?.frameAncestors ?? [];
  const policy = contentSecurityPolicy(nonce, { frameAncestors, imageUrls: [session?.branding.logoUrl] });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  headers.set('x-nonce', nonce);
  // The page asked for, so a signed-out visit to a deep link signs in and comes back to it
  // (app/(dashboard)/layout.tsx); set here, over anything the client sent under that name.
  headers.set(REQUESTED_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  // next.config.ts sends X-Frame-Options: DENY everywhere but /portal; for browsers that predate
  // frame-ancestors, a portal nobody may frame says DENY too.
  if (portal && frameAncestors.length === 0) response.headers.set('x-frame-options', 'DENY');
  return response;
}

export const config = {
  matcher: [
    {
      // The API (the REST API and the portal's view of it) and the static files of public/ run no
      // inline script.
      source:
        '/((?!api/|portal/api/|portal/open|_next/static|_next/image|favicon.ico|favicon.svg|logo.svg|apple-touch-icon.png|icon-192.png|icon-512.png|manifest.webmanifest|robots.txt).*)',
      // Prefetches fetch RSC data, not a page with scripts.
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
