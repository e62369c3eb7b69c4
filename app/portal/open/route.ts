// Opens a portal link: trades the token in the URL for the portal cookie and redirects to the portal,
// so the token does not stay in the address bar, the history, or the Referer of anything the portal
// loads. The token remains usable until the session expires or is revoked: an operator's page that
// renders the same iframe twice (a reload) must keep working, and the short lifetime bounds a leak.
import { isSecureRequest } from '@/lib/http/auth/authenticate-request';
import { findPortalSession } from '@/lib/domain/portal/find-portal-session';
import { clearedPortalCookie, PORTAL_PATH, portalCookie } from '@/lib/http/portal/portal-cookie';
import { insecureEmbeddingPage, isInsecureCrossSiteFrame } from '@/lib/http/portal/insecure-embedding-page';

export const runtime = 'nodejs';

// Nothing on the way may keep a response that sets a session, or the URL that led to it.
const PRIVATE_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

export async function GET(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token') ?? undefined;
  const session = await findPortalSession(token);
  const secure = isSecureRequest(request);
  if (!session) {
    return new Response(expiredPage, {
      status: 401,
      headers: {
        ...PRIVATE_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Set-Cookie': clearedPortalCookie(secure),
        // A static page without scripts; framing it is harmless, but nothing needs to.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      },
    });
  }
  if (isInsecureCrossSiteFrame(request, secure)) {
    // The redirect would end in a frame refused without a word (lib/http/portal/insecure-embedding-page.ts).
    const frameAncestors = session.frameAncestors.length > 0 ? session.frameAncestors.join(' ') : "'none'";
    const openUrl = `${PORTAL_PATH}/open?token=${encodeURIComponent(token!)}`;
    return new Response(insecureEmbeddingPage(openUrl), {
      status: 200,
      headers: {
        ...PRIVATE_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors ${frameAncestors}`,
      },
    });
  }
  const maxAge = Math.max(1, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  // A relative Location: the browser resolves it against the URL it opened, whatever proxy is in front.
  return new Response(null, {
    status: 303,
    headers: { ...PRIVATE_HEADERS, Location: PORTAL_PATH, 'Set-Cookie': portalCookie(token!, maxAge, secure) },
  });
}

const expiredPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Portal link expired</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; color: #18181b">
<h1 style="font-size: 1.25rem">This portal link has expired</h1>
<p>It was revoked or is past its time. Open the webhooks page of the product you came from again to get a new one.</p>
</body></html>`;
