// The dashboard's Content-Security-Policy. Next.js streams inline scripts (the RSC payload) and
// loads its chunks from script tags, so a host allow-list cannot tell them from an injected script:
// each page gets a fresh nonce instead (proxy.ts), Next.js puts it on every script it renders, and
// 'strict-dynamic' lets those scripts load the chunks they need. Anything inline without the nonce
// (an injected <script>, an onclick= attribute) does not run.
//
// Styles keep 'unsafe-inline': Recharts and React set style="" attributes, which a nonce cannot
// cover (and a nonce in style-src would make browsers ignore 'unsafe-inline'). Style injection cannot
// run code, and script-src is what stops XSS.

export function contentSecurityPolicy(
  nonce: string,
  {
    frameAncestors = [],
    imageUrls = [],
  }: { frameAncestors?: string[]; imageUrls?: (string | null | undefined)[] } = {},
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    // A portal's logo (an https URL its operator set) is the only image from elsewhere: its origin, not
    // https: at large, so an injected <img> cannot beacon data to any other host.
    ["img-src 'self' data: blob:", ...imageOrigins(imageUrls)].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // No other site may frame the dashboard (clickjacking its replay and disable buttons). A customer
    // portal page is framed only by the origins its app lists (validated as bare origins when set, in
    // lib/contract/schemas/apps.ts, so an entry cannot add a directive); none listed, none allowed.
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/** The https origins of these URLs; anything else (null, not a URL, not https) adds nothing. */
function imageOrigins(urls: (string | null | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      // URL.origin is scheme://host[:port], punycoded: nothing in it can end the directive.
      if (parsed.protocol === 'https:') origins.add(parsed.origin);
    } catch {
      // Not a URL: the API refuses one, so only a hand-edited row gets here; it shows no logo.
    }
  }
  return [...origins];
}

/** 128 random bits, base64: unguessable, and fresh for every page. */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}
