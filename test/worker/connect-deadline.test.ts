// An endpoint's own deadline covers connecting: the name lookup, TCP and the TLS handshake, not only
// the request once a connection exists. The worker's deadline here is 2000 ms and the endpoint's 300 ms;
// before, a lookup taking 1.5 s failed the attempt after 1517 ms, and a listener that never finished the
// TLS handshake after 2493 ms (the worker's connect timeout).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, sendEvent, waitForDelivery, type AttemptRow } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, startTcpListener, type Receiver, type TcpListener } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const WORKER_TIMEOUT_MS = 2000;
const ENDPOINT_TIMEOUT_MS = 300;
const SLOW_LOOKUP_MS = 1500;

let db: TestDatabase;
let appId: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
  await startTestWorker(db.url, {
    // One attempt each: the delivery is dead right after it, which is when the test reads it.
    retrySchedule: [0],
    http: { timeoutMs: WORKER_TIMEOUT_MS, keepBytes: 1024, drainBytes: 64 * 1024 },
    // Loopback under names, without DNS traffic: one answers at once, one after SLOW_LOOKUP_MS.
    resolve: async (hostname) => {
      if (hostname === 'slow-lookup.test') await new Promise((resolve) => setTimeout(resolve, SLOW_LOOKUP_MS));
      return ['127.0.0.1'];
    },
  });
});

afterAll(async () => {
  await stopTestWorkers();
  for (const close of closers) await close();
});

let eventCounter = 0;
/** One endpoint at `url` with the endpoint's own deadline, one event to it; its single attempt. */
async function attemptAgainst(url: string): Promise<AttemptRow> {
  const eventType = `case.${++eventCounter}`;
  await createEventType(db.pool, appId, eventType);
  const endpoint = await createEndpoint(db.pool, appId, url, { eventTypes: [eventType] });
  await db.pool.query('UPDATE hookline.endpoints SET timeout_ms = $2 WHERE id = $1', [
    endpoint.id,
    ENDPOINT_TIMEOUT_MS,
  ]);
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

describe("the endpoint's deadline covers connecting", () => {
  it('a name lookup slower than the deadline fails the attempt at the deadline, as a timeout', async () => {
    const receiver: Receiver = await startReceiver();
    closers.push(() => receiver.close());
    const attempt = await attemptAgainst(`http://slow-lookup.test:${receiver.port}/hook`);
    expect(attempt).toMatchObject({ error_class: 'timeout', status_code: null });
    expect(attempt.error_message).toContain(`within ${ENDPOINT_TIMEOUT_MS} ms`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(ENDPOINT_TIMEOUT_MS - 20);
    expect(attempt.duration_ms).toBeLessThan(600);
    // Nothing was opened for the lookup that came back after the attempt had failed.
    await new Promise((resolve) => setTimeout(resolve, SLOW_LOOKUP_MS));
    expect(receiver.connections).toBe(0);
  });

  it('a TLS handshake that never completes fails the attempt at the deadline, as a timeout', async () => {
    // Accepts the TCP connection and never says a word: the client's hello goes unanswered.
    const silent: TcpListener = await startTcpListener();
    closers.push(() => silent.close());
    const attempt = await attemptAgainst(`https://receiver.test:${silent.port}/hook`);
    expect(attempt).toMatchObject({ error_class: 'timeout', status_code: null });
    expect(attempt.error_message).toContain(`within ${ENDPOINT_TIMEOUT_MS} ms`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(ENDPOINT_TIMEOUT_MS - 20);
    expect(attempt.duration_ms).toBeLessThan(600);
    expect(silent.connections).toBe(1);
  });
});
