// The web port is claimed first (so "port in use" is the first thing a user hears), but the dashboard
// is ready only after the database, migrations and the Next.js build: a minute on a first start.
// Requests in that window get a clear 503 with Retry-After instead of hanging until ready (or, seen
// before this, for good).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isApiPath } from './malformed-path';

// A first start builds the dashboard in about a minute; later starts take a few seconds.
const RETRY_AFTER_SECONDS = 5;
const MESSAGE = 'Hookline is starting; try again in a few seconds.';

export function answerWhileStarting(request: IncomingMessage, response: ServerResponse): void {
  // The body is not read: drop it instead of letting a large upload hold the connection.
  request.resume();
  const api = isApiPath(request.url);
  const body = api
    ? JSON.stringify({ error: { code: 'starting', message: MESSAGE } })
    : `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">` +
      `<title>Hookline is starting</title><p>${MESSAGE} This page reloads by itself.</p>\n`;
  response.writeHead(503, {
    'content-type': api ? 'application/json' : 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(RETRY_AFTER_SECONDS),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
