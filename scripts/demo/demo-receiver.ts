// A local webhook receiver for `npm run demo`, with one path per personality so the dashboard has
// something to show within a minute: a healthy service, a flaky one (500s and 429s), and a slow one
// whose occasional 20 s hang exceeds the delivery timeout. Listens on 127.0.0.1 only.
import { createServer, type Server } from 'node:http';

export interface DemoReceiver {
  url: string;
  received: number;
  close(): Promise<void>;
}

interface Reply {
  delayMs: number;
  status: number;
  headers?: Record<string, string>;
}
type Behaviour = () => Reply;

const between = (min: number, max: number) => min + Math.random() * (max - min);

const behaviours: Record<string, Behaviour> = {
  '/billing': () => ({ delayMs: between(5, 60), status: 200 }),
  '/crm': () => {
    const roll = Math.random();
    if (roll < 0.2) return { delayMs: between(10, 40), status: 500 };
    if (roll < 0.25) return { delayMs: 5, status: 429, headers: { 'retry-after': '7' } };
    return { delayMs: between(20, 150), status: 200 };
  },
  '/analytics': () => (Math.random() < 0.03 ? { delayMs: 20_000, status: 200 } : { delayMs: between(100, 400), status: 204 }),
};

export async function startDemoReceiver(): Promise<DemoReceiver> {
  const state = { received: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.received++;
      const behaviour = behaviours[request.url ?? ''] ?? ((): Reply => ({ delayMs: 0, status: 404 }));
      const { delayMs, status, headers } = behaviour();
      const timer = setTimeout(() => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify({ ok: status < 300, receivedBy: `demo${request.url}` }));
      }, delayMs);
      response.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return state.received;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
