// Every error class, each produced by a real misbehaving receiver on loopback, and the limits that
// keep a receiver from holding the worker: one deadline per attempt, bounded response reading, no
// redirects. Each case goes through the real worker and is read back from the attempts table.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { attemptsOf, sendEvent, waitForDelivery, type AttemptRow } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, startTcpListener, type Receiver, type TcpListener } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
const closers: (() => Promise<void>)[] = [];
const TIMEOUT_MS = 600;

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  await startTestWorker(db.url, {
    // One attempt each: the delivery is dead right after it, which is when the test reads it.
    retrySchedule: [0],
    http: { timeoutMs: TIMEOUT_MS, keepBytes: 1024, drainBytes: 256 * 1024 },
    // Successes are read back from the attempts table too (what of the response was kept).
    keepSuccessfulAttempts: true,
    // Names a test can point anywhere without DNS traffic; anything else does not exist.
    resolve: (hostname) => {
      if (hostname === 'receiver.test') return Promise.resolve(['127.0.0.1']);
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    },
  });
});

afterAll(async () => {
  await stopTestWorkers();
  for (const close of closers) await close();
});

let eventCounter = 0;
/** One endpoint at `url`, one event to it; resolves with its single attempt once recorded. */
async function attemptAgainst(url: string): Promise<AttemptRow> {
  const eventType = `case.${++eventCounter}`;
  await createEventType(db.pool, appId, eventType);
  await createEndpoint(db.pool, appId, url, { eventTypes: [eventType] });
  const messageId = await sendEvent(db.pool, appId, eventType, { case: eventCounter });
  const delivery = await waitForDelivery(
    db.pool,
    messageId,
    (row) => row.state !== 'pending' && row.state !== 'delivering',
  );
  const attempts = await attemptsOf(db.pool, delivery.id);
  expect(attempts).toHaveLength(1);
  return attempts[0]!;
}

async function receiver(handler: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(handler);
  closers.push(() => started.close());
  return started;
}

async function tcp(onSocket: (socket: Socket) => void): Promise<TcpListener> {
  const started = await startTcpListener(onSocket);
  closers.push(() => started.close());
  return started;
}

/** Calls `then` once the whole request (headers and body) has arrived. */
function afterRequest(socket: Socket, then: () => void): void {
  let seen = '';
  socket.on('data', (chunk: Buffer) => {
    seen += chunk.toString('latin1');
    const headerEnd = seen.indexOf('\r\n\r\n');
    const length = /content-length:\s*(\d+)/i.exec(seen)?.[1];
    if (headerEnd !== -1 && length !== undefined && seen.length >= headerEnd + 4 + Number(length)) then();
  });
}

describe('error classes', () => {
  it('timeout: the receiver accepts the request and never answers', async () => {
    const silent = await receiver(() => {});
    const attempt = await attemptAgainst(silent.url);
    expect(attempt).toMatchObject({ error_class: 'timeout', status_code: null });
    expect(attempt.error_message).toContain(`${TIMEOUT_MS} ms`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(attempt.duration_ms).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('connect_refused: nothing listens on the port', async () => {
    const port = await freePort();
    const attempt = await attemptAgainst(`http://127.0.0.1:${port}/`);
    expect(attempt).toMatchObject({ error_class: 'connect_refused', status_code: null });
    expect(attempt.error_message).toContain('ECONNREFUSED');
  });

  it('connection_reset: the receiver resets the connection after reading the request', async () => {
    const listener = await tcp((socket) => afterRequest(socket, () => socket.resetAndDestroy()));
    const attempt = await attemptAgainst(`http://127.0.0.1:${listener.port}/`);
    expect(attempt).toMatchObject({ error_class: 'connection_reset', status_code: null });
    expect(listener.connections).toBe(1);
  });

  it('empty_reply: the receiver closes the connection without a byte of response', async () => {
    const listener = await tcp((socket) => afterRequest(socket, () => socket.end()));
    const attempt = await attemptAgainst(`http://127.0.0.1:${listener.port}/`);
    expect(attempt).toMatchObject({ error_class: 'empty_reply', status_code: null });
  });

  it('dns: the name does not resolve', async () => {
    const attempt = await attemptAgainst('http://no-such-receiver.invalid/hook');
    expect(attempt).toMatchObject({ error_class: 'dns', status_code: null });
    expect(attempt.error_message).toContain('ENOTFOUND');
  });

  it('tls: an https URL pointing at a plain-HTTP listener', async () => {
    const plain = await receiver(answer(200));
    const attempt = await attemptAgainst(`https://receiver.test:${plain.port}/`);
    expect(attempt).toMatchObject({ error_class: 'tls', status_code: null });
  });

  it('blocked_address: a private address without HOOKLINE_ALLOW_PRIVATE_NETWORKS', async () => {
    // Refused by the policy before any socket is opened; 10.0.0.1 is never contacted.
    const attempt = await attemptAgainst('http://10.0.0.1/hook');
    expect(attempt).toMatchObject({ error_class: 'blocked_address', status_code: null });
    expect(attempt.error_message).toContain('private');
  });

  it('http_3xx: a redirect is a failure and is not followed', async () => {
    const target = await receiver(answer(200));
    const redirecting = await receiver(answer(302, '', { location: `${target.url}/elsewhere` }));
    const attempt = await attemptAgainst(redirecting.url);
    expect(attempt).toMatchObject({ error_class: 'http_3xx', status_code: 302 });
    expect(attempt.response_headers?.location).toBe(`${target.url}/elsewhere`);
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it.each([
    [400, 'http_4xx'],
    [404, 'http_4xx'],
    [500, 'http_5xx'],
    [502, 'http_5xx'],
  ])('status %i is %s, with the response kept for the log', async (status, errorClass) => {
    const failing = await receiver(answer(status, `{"error":"status ${status}"}`, { 'x-request-id': 'r-1' }));
    const attempt = await attemptAgainst(failing.url);
    expect(attempt).toMatchObject({
      error_class: errorClass,
      status_code: status,
      response_body: `{"error":"status ${status}"}`,
      response_truncated: false,
    });
    expect(attempt.response_headers?.['x-request-id']).toBe('r-1');
  });
});

describe('limits', () => {
  it('one deadline covers the whole body: a receiver dripping a byte every 100 ms is cut off', async () => {
    const dripping = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 100);
      response.on('close', () => clearInterval(timer));
    });
    const attempt = await attemptAgainst(dripping.url);
    expect(attempt).toMatchObject({ error_class: 'timeout' });
    expect(attempt.duration_ms).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('keeps the first KB of a 50 MB response, drains a bounded amount, then hangs up', async () => {
    let bytesWritten = 0;
    let finished = false;
    const huge = await receiver((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(50 * 1024 * 1024),
      });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (bytesWritten < 50 * 1024 * 1024) {
          bytesWritten += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        finished = true;
        response.end();
      };
      response.on('close', () => undefined);
      pump();
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const attempt = await attemptAgainst(huge.url);
    expect(attempt).toMatchObject({ status_code: 200, error_class: null, response_truncated: true });
    expect(attempt.response_body).toHaveLength(1024);
    // The worker stopped reading after keepBytes + drainBytes (1 KB + 256 KB) and closed the socket:
    // the receiver could not push the whole 50 MB, and the worker's heap did not grow by it.
    expect(finished).toBe(false);
    expect(bytesWritten).toBeLessThan(20 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(30 * 1024 * 1024);
  });
});
