// The admin session cookie. HttpOnly keeps it away from scripts, SameSite=Lax keeps other sites'
// forms and fetches from sending it (CSRF is additionally checked with Origin on every state change).
export const SESSION_COOKIE_NAME = 'hookline_session';

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [`${SESSION_COOKIE_NAME}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/** The session token from a Cookie header, or undefined. */
export function readSessionCookie(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const index = pair.indexOf('=');
    if (index === -1) continue;
    if (pair.slice(0, index).trim() === SESSION_COOKIE_NAME) return pair.slice(index + 1).trim() || undefined;
  }
  return undefined;
}
