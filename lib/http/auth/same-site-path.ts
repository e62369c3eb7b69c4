// Where a sign-in sends the browser afterwards (`next`): a path on this site, never another site.
// "Starts with / and not //" is not that check: a browser reads "/\evil.example" as "//evil.example"
// (a backslash is a slash in http URLs) and drops tabs and newlines anywhere in a URL, so
// "/<tab>/evil.example" is "//evil.example" too; both are protocol-relative redirects off the site.
// So the path is resolved as a browser would, against a stand-in origin, and kept only if it stays
// there; what is returned is the resolved path, not the text given.

const STAND_IN_ORIGIN = 'http://hookline.invalid';

/** The default when `next` is missing or leaves the site. */
export const HOME_PATH = '/overview';

/** `next` as a same-site path (path, query and fragment), or null when it is not one. */
export function sameSitePathOrNull(next: unknown): string | null {
  if (typeof next !== 'string' || !next.startsWith('/')) return null;
  // Control characters (a browser strips tab, CR and LF) and backslashes have no place in a path we
  // wrote: refused rather than normalized.
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return null;
  }
  let url: URL;
  try {
    url = new URL(next, STAND_IN_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== STAND_IN_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `next` as a same-site path, or the overview. */
export function sameSitePath(next: unknown): string {
  return sameSitePathOrNull(next) ?? HOME_PATH;
}
