// What an iframe shows when another site embeds the portal over plain http (issue 23, item 12).
//
// Over http the portal cookie is SameSite=Lax (portal-cookie.ts: SameSite=None needs Secure, which
// needs https), and a browser does not send a Lax cookie to a page framed by another site. So
// /portal/open would set a cookie the redirected /portal never receives: that page has no session, hence
// no allowed origins, hence frame-ancestors 'none', and the customer sees a refused frame with no word
// of why, though the operator listed the site. /portal/open still has the token, so it knows the app
// and its allowed origins: instead of a redirect that cannot work it answers this page, framed by those
// origins only, which says why and offers the portal in a tab of its own (top-level, where Lax is sent).
//
// It is told by the Fetch Metadata headers (Sec-Fetch-Dest: iframe, Sec-Fetch-Site: cross-site). Browsers
// send those only to https and loopback origins, so a Hookline over plain http on another host still
// shows the refused frame: the dashboard's portal settings and the README say so.

/** Whether this request opens the portal in an iframe of another site, over a connection without TLS. */
export function isInsecureCrossSiteFrame(request: Request, secure: boolean): boolean {
  return (
    !secure &&
    request.headers.get('sec-fetch-dest') === 'iframe' &&
    request.headers.get('sec-fetch-site') === 'cross-site'
  );
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page, linking to `openUrl` (the same one-time link, opened in a new tab). */
export function insecureEmbeddingPage(openUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhooks</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; color: #18181b">
<h1 style="font-size: 1.125rem" data-testid="portal-insecure-embedding">The webhooks portal cannot be shown inside this page</h1>
<p>It is served over plain http, and over http browsers do not let a page embedded in another site keep its sign-in
(the session cookie is SameSite, which needs https to be sent to an embedded page).</p>
<p><a href="${escapeHtml(openUrl)}" target="_blank" rel="noopener noreferrer">Open the webhooks portal in a new tab</a></p>
<p style="color: #71717a; font-size: 0.875rem">For the site's operator: serve Hookline over https (HOOKLINE_PUBLIC_URL=https://…)
to embed the portal in another site; over http it embeds only in a page of the same site.</p>
</body></html>`;
}
