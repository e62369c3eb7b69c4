import { getApiSettings } from '../../runtime/api-settings';

/**
 * What a session list shows to tell sessions apart: the browser's User-Agent and the client address.
 * Both are for people to read, never for a decision. The address is the first X-Forwarded-For entry
 * behind a trusted proxy (HOOKLINE_TRUST_PROXY), else the last one, which the hop in front of Next.js
 * appended.
 */
export function clientInfo(request: Request): { userAgent: string | null; ip: string | null } {
  const forwarded = request.headers
    .get('x-forwarded-for')
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const ip = (getApiSettings().trustProxy ? forwarded?.[0] : forwarded?.at(-1)) ?? null;
  return { userAgent: request.headers.get('user-agent'), ip: ip?.slice(0, 100) ?? null };
}
