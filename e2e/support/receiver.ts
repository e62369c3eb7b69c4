// The webhook receiver the e2e server delivers to: 127.0.0.1 on a free port, with a behaviour the
// tests switch over HTTP (the tests run in a Playwright worker process, the receiver in the runner).
import { createServer, type Server } from 'node:http';

export type ReceiverMode = 'ok' | 'fail' | 'xss';

/** Requests to a path under this are answered 200 only after HOLD_MS: an attempt held in flight. */
export const HOLD_PATH = '/hold/';
export const HOLD_MS = 8_000;

/** What a receiver might echo back that a careless dashboard would render as HTML. */
export const XSS_RESPONSE_BODY = '<img src=x onerror="window.__hooklineXss=1"><script>window.__hooklineXss=2</script>';

export interface E2eReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startE2eReceiver(): Promise<E2eReceiver> {
  let mode: ReceiverMode = 'ok';
  let received = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver');
      if (url.pathname === '/__control') {
        const next = url.searchParams.get('mode');
        if (next === 'ok' || next === 'fail' || next === 'xss') mode = next;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ mode, received }));
        return;
      }
      received += 1;
      if (url.pathname.startsWith(HOLD_PATH)) {
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end('ok, late');
        }, HOLD_MS).unref();
      } else if (mode === 'fail') {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('receiver is down for the test');
      } else if (mode === 'xss') {
        // A failure, so its response is kept in the attempt log (a success is kept on its delivery
        // row without the response, unless HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS).
        response.writeHead(422, { 'content-type': 'text/html', 'x-echo': '<b>bold</b>' });
        response.end(XSS_RESPONSE_BODY);
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
