// Read-your-own-writes across a lagging read replica (lib/database/read-replica.ts), at the HTTP edge:
// a change answers with the primary's WAL position after it, in the `Hookline-Read-After` header (API
// clients send it back on their next read when they need to see the change) and, for the dashboard, in
// a cookie of the same name that the browser sends back by itself. Nothing is added when no replica is
// configured.
import { isSecureRequest } from './auth/authenticate-request';
import { parseWalPosition, primaryWalPosition, readReplicaConfigured } from '../database/read-replica';

export const READ_AFTER_HEADER = 'Hookline-Read-After';
const COOKIE = 'hookline_read_after';
// Long enough for any lag a replica in use may have (HOOKLINE_READ_MAX_LAG is 10 s by default); a
// stale cookie costs nothing, since a replica that has replayed past it is read from as usual.
const COOKIE_SECONDS = 300;

/** The WAL position a read must see, from the request's header or cookie; null when it names none. */
export function readAfterOf(request: Request): string | null {
  if (!readReplicaConfigured()) return null;
  const header = parseWalPosition(request.headers.get(READ_AFTER_HEADER));
  if (header) return header;
  const cookie = /(?:^|;\s*)hookline_read_after=([^;]*)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return parseWalPosition(cookie ? decodeURIComponent(cookie) : null);
}

/** Adds where the primary's WAL is now to the answer of a change, so the next read can see it. */
export async function markWritten(response: Response, request: Request): Promise<Response> {
  if (!readReplicaConfigured()) return response;
  const lsn = await primaryWalPosition();
  if (!lsn) return response;
  // A copy: a handler's own Response may have immutable headers (Response.redirect).
  const marked = new Response(response.body, response);
  marked.headers.set(READ_AFTER_HEADER, lsn);
  const secure = isSecureRequest(request) ? '; Secure' : '';
  marked.headers.append(
    'Set-Cookie',
    `${COOKIE}=${lsn}; Path=/; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
  return marked;
}
