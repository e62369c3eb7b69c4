// Next.js decodes the path before routing and answers a malformed percent-encoding (`/apps/%ff%fe`:
// bytes that are not UTF-8) with a bare text 500 and nothing logged. Such a path is the client's
// mistake, so it is caught here, before Next.js: a 400 in the API's error shape under /api, and the
// dashboard's ordinary not-found page elsewhere.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A path no route matches, so Next.js renders app/not-found.tsx with a 404. */
export const NOT_FOUND_PATH = '/_hookline/malformed-path';

export function hasMalformedPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

export function isApiPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0]!;
  return path === '/api' || path.startsWith('/api/');
}

export function answerMalformedApiPath(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const body = JSON.stringify({
    error: {
      code: 'invalid_path',
      message: 'The path is not valid percent-encoding: every % must start an escape of UTF-8 bytes (%2F, %C3%A9)',
    },
  });
  response.writeHead(400, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
