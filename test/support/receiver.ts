// Scriptable webhook receivers on 127.0.0.1:0 for worker tests: a real HTTP server whose answer a test
// sets per request, that records every request and counts TCP connections, and a raw TCP listener for
// receivers that misbehave below HTTP (reset, hang up, never answer).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** The client's port: requests with the same port came over the same keep-alive connection. */
  remotePort: number;
}

export type ReceiverHandler = (
  request: ReceivedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  /** Most connections open at the same time. */
  maxOpenConnections: number;
  respond(handler: ReceiverHandler): void;
  /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): ReceiverHandler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(body);
  };

export async function startReceiver(handler: ReceiverHandler = answer(200, 'ok')): Promise<Receiver> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let waiters: (() => void)[] = [];
  const server: Server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(raw.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const request: ReceivedRequest = {
        method: raw.method ?? '',
        path: raw.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        remotePort: raw.socket.remotePort ?? 0,
      };
      requests.push(request);
      for (const wake of waiters) wake();
      Promise.resolve(current(request, response, raw)).catch(() => response.destroy());
    });
  });
  const receiver = {
    url: '',
    port: 0,
    requests,
    connections: 0,
    maxOpenConnections: 0,
    respond(next: ReceiverHandler) {
      current = next;
    },
    waitForRequests(count: number, timeoutMs = 10_000) {
      return new Promise<ReceivedRequest[]>((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((waiter) => waiter !== check);
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== check);
          reject(new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    receiver.connections++;
    sockets.add(socket);
    receiver.maxOpenConnections = Math.max(receiver.maxOpenConnections, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

export interface TcpListener {
  port: number;
  connections: number;
  close(): Promise<void>;
}

/** A bare TCP listener: `onSocket` decides what the "receiver" does with each connection. */
export async function startTcpListener(onSocket: (socket: Socket) => void = () => {}): Promise<TcpListener> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    listener.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  const listener = {
    port: 0,
    connections: 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  listener.port = typeof address === 'object' && address ? address.port : 0;
  return listener;
}

export function waitUntil<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  { timeoutMs = 10_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  return new Promise<T>((resolve, reject) => {
    const tick = async () => {
      try {
        const value = await probe();
        if (value) return resolve(value);
      } catch (error) {
        if (Date.now() > until) return reject(error as Error);
      }
      if (Date.now() > until) return reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      setTimeout(() => void tick(), intervalMs);
    };
    void tick();
  });
}
