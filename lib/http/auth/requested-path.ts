import { HOME_PATH, sameSitePathOrNull } from './same-site-path';

/** The request header proxy.ts puts the requested page's path and query in, for the sign-in redirect. */
export const REQUESTED_PATH_HEADER = 'x-hookline-requested-path';

/** Where a signed-out visit to `path` goes: the sign-in page, told to come back to it. Only a same-site
 * path is carried (the sign-in page checks again before it redirects). */
export function signInPathFor(path: string | null): string {
  const next = sameSitePathOrNull(path);
  if (next === null || next === HOME_PATH) return '/sign-in';
  return `/sign-in?next=${encodeURIComponent(next)}`;
}
