// The client's address for the audit log. A route handler gets a web Request, which carries no socket:
// scripts/start.ts puts the socket's address in REMOTE_ADDRESS_HEADER after dropping whatever the client
// sent under that name. Behind a proxy Hookline is told to trust (HOOKLINE_TRUST_PROXY), the last
// X-Forwarded-For entry is the client instead: the one that proxy appended. Entries before it are
// whatever the client sent under that name, so they are never believed; untrusted, the header is ignored.
import { getApiSettings } from '../runtime/api-settings';

export const REMOTE_ADDRESS_HEADER = 'x-hookline-remote-address';

export function remoteAddressOf(request: Request): string | null {
  if (getApiSettings().trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 100);
  }
  return request.headers.get(REMOTE_ADDRESS_HEADER)?.slice(0, 100) || null;
}
