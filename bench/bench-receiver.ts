// The webhook receiver the benchmark delivers to: node:http on 127.0.0.1:0 that answers 200 at once
// (or after a delay, or 500 for a share of requests), counts accepted TCP connections and requests,
// and records enqueue-to-delivery latency from the envelope's timestamp (the message's created_at).
// A delivery is identified by its endpoint (the request path, /e<n>) and its webhook-id (the message
// id, the same for every endpoint a message fans out to).
// Keep-alive idle timeout is 65 s, like nginx's default 75 s rather than node's 5 s, so the worker's
// pooled connections are not closed under it between bursts.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ReceiverBehaviour {
  delayMs: number;
  /** Share of requests answered with 500, from 0 to 1. */
  failRate: number;
}

export interface ReceiverCounts {
  requests: number;
  /** Requests answered 2xx. */
  succeeded: number;
  /** Distinct (endpoint, webhook-id) pairs answered 2xx. */
  uniqueSucceeded: number;
  /**
   * Requests for an (endpoint, webhook-id) the receiver had already answered 2xx or was still
   * answering: sends the worker should not have made (an expired lease, a lost result). A retry after
   * a 500 is not one.
   */
  duplicates: number;
  answeredWithError: number;
  connections: number;
  maxOpenConnections: number;
  firstSuccessAt: number | null;
  lastSuccessAt: number | null;
  /** When the last request of any kind arrived (Date.now()). */
  lastRequestAt: number | null;
}

export interface BenchReceiver {
  url: string;
  port: number;
  setBehaviour(behaviour: ReceiverBehaviour): void;
  /** Forgets every count and latency (connections already open stay open). */
  reset(): void;
  counts(): ReceiverCounts;
  /** Receiver time minus message created_at, in ms, for the first 2xx of each message. */
  latencies(): Float64Array;
  /** Resolves when `count` distinct deliveries were answered 2xx; rejects after `timeoutMs`. */
  waitForUnique(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

// The envelope's timestamp is the message's created_at. Implicit (hookline.http_post) endpoints get
// the bare row, whose harvested_at column defaults to now(), the same transaction time.
const TIMESTAMP = /"(?:timestamp|harvested_at)": ?"([^"]+)"/;

export async function startBenchReceiver(): Promise<BenchReceiver> {
  let behaviour: ReceiverBehaviour = { delayMs: 0, failRate: 0 };
  let counts: ReceiverCounts;
  // Deliveries answered 2xx (`succeeded`) or being answered (`inFlight`), as "<path> <webhook-id>".
  let succeededKeys: Set<string>;
  let inFlight: Set<string>;
  let latencies: Float64Array;
  let latencyCount: number;
  const reset = () => {
    counts = {
      requests: 0,
      succeeded: 0,
      uniqueSucceeded: 0,
      duplicates: 0,
      answeredWithError: 0,
      connections: 0,
      maxOpenConnections: sockets.size,
      firstSuccessAt: null,
      lastSuccessAt: null,
      lastRequestAt: null,
    };
    succeededKeys = new Set();
    inFlight = new Set();
    latencies = new Float64Array(1 << 16);
    latencyCount = 0;
  };
  const sockets = new Set<Socket>();
  reset();

  const recordSuccess = (key: string, createdAt: number, now: number) => {
    counts.succeeded++;
    if (succeededKeys.has(key)) return;
    succeededKeys.add(key);
    counts.uniqueSucceeded++;
    counts.firstSuccessAt ??= now;
    counts.lastSuccessAt = now;
    if (latencyCount === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[latencyCount++] = now - createdAt;
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      counts.requests++;
      counts.lastRequestAt = receivedAt;
      const key = `${request.url ?? ''} ${String(request.headers['webhook-id'] ?? '')}`;
      if (succeededKeys.has(key) || inFlight.has(key)) counts.duplicates++;
      inFlight.add(key);
      const head = Buffer.concat(chunks).subarray(0, 400).toString('utf8');
      const createdAt = Date.parse(TIMESTAMP.exec(head)?.[1] ?? '');
      const fail = behaviour.failRate > 0 && Math.random() < behaviour.failRate;
      const answer = () => {
        inFlight.delete(key);
        if (fail) {
          counts.answeredWithError++;
          response.writeHead(500, { 'content-type': 'text/plain' }).end('failing on purpose');
          return;
        }
        recordSuccess(key, createdAt, receivedAt);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      };
      if (behaviour.delayMs > 0) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket: Socket) => {
    counts.connections++;
    sockets.add(socket);
    counts.maxOpenConnections = Math.max(counts.maxOpenConnections, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setBehaviour(next) {
      behaviour = next;
    },
    reset,
    counts: () => ({ ...counts }),
    latencies: () => latencies.slice(0, latencyCount),
    waitForUnique(count, timeoutMs) {
      const until = Date.now() + timeoutMs;
      return new Promise((resolve, reject) => {
        const check = () => {
          if (counts.uniqueSucceeded >= count) return resolve();
          if (Date.now() > until) {
            return reject(
              new Error(
                `the receiver got ${counts.uniqueSucceeded} of ${count} deliveries within ${timeoutMs / 1000} s`,
              ),
            );
          }
          setTimeout(check, 5);
        };
        check();
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
