// Runs before every dashboard page (Next.js 16's proxy, formerly middleware): a fresh CSP nonce per
// page. Next.js reads the nonce from the request's Content-Security-Policy header and puts it on the
// scripts it renders; the same policy goes out on the response. The API and static files are not
// matched: they run no inline script, and next.config.ts gives them the other security headers.
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, createNonce } from './lib/security/content-security-policy';

export function proxy(request: NextRequest) {
  const nonce = createNonce();
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  headers.set('x-nonce', nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  matcher: [
    {
      // The API and the static files of public/ run no inline script.
      source:
        '/((?!api/|_next/static|_next/image|favicon.ico|favicon.svg|logo.svg|apple-touch-icon.png|icon-192.png|icon-512.png|manifest.webmanifest|robots.txt).*)',
      // Prefetches fetch RSC data, not a page with scripts.
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
