// Protecting receivers: the per-endpoint circuit breaker kept in the endpoints row, 410 Gone, and
// auto-disable after a long failure streak, with the health columns the dashboard reads.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, deliveriesOf, sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { countRows, createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

let db: TestDatabase;
let appId: string;
const receivers: Receiver[] = [];

interface EndpointRow {
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_failures: number;
  circuit_state: string;
  circuit_open_until: Date | null;
  circuit_backoff_ms: number | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_error_class: string | null;
}

beforeAll(async () => {
  db = await createTestDatabase();
  appId = await createApp(db.pool);
});

afterEach(async () => {
  await stopTestWorkers();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function endpointRow(id: string): Promise<EndpointRow> {
  const { rows } = await db.pool.query<EndpointRow>('SELECT * FROM hookline.endpoints WHERE id = $1', [id]);
  return rows[0]!;
}

let counter = 0;
async function endpointWith(status: number) {
  const receiver = await startReceiver(answer(status));
  receivers.push(receiver);
  const eventType = `circuit.${++counter}`;
  await createEventType(db.pool, appId, eventType);
  const endpoint = await createEndpoint(db.pool, appId, receiver.url, { eventTypes: [eventType] });
  return { receiver, eventType, endpointId: endpoint.id };
}

// Many quick retries, so that only the breaker (not the schedule) decides when attempts happen.
const quickRetries = Array.from({ length: 30 }, (_, i) => (i === 0 ? 0 : 50));

describe('circuit breaker', () => {
  it('opens after N failures in a row, holds deliveries without spending attempts, probes once, closes on success', async () => {
    const { receiver, eventType, endpointId } = await endpointWith(500);
    await startTestWorker(db.url, {
      retrySchedule: quickRetries,
      circuit: { failureThreshold: 3, openBaseMs: 1500, openMaxMs: 10_000 },
    });
    for (let i = 0; i < 3; i++) await sendEvent(db.pool, appId, eventType, { i });

    const opened = await waitUntil(async () => {
      const row = await endpointRow(endpointId);
      return row.circuit_state === 'open' ? row : null;
    });
    expect(opened.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(opened).toMatchObject({ last_error_class: 'http_5xx', circuit_backoff_ms: 1500, enabled: true });
    expect(opened.failing_since).not.toBeNull();
    expect(opened.last_failure_at).not.toBeNull();

    // While open: no request reaches the receiver, and waiting costs the deliveries no attempts.
    // (Attempts already in flight when it opened finish and are recorded first: give them 200 ms.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    const settled = await endpointRow(endpointId);
    const requestsWhenOpened = receiver.requests.length;
    const attemptsWhenOpened = await countRows(db.pool, 'attempts', 'endpoint_id = $1', [endpointId]);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.requests.length).toBe(requestsWhenOpened);
    expect(await countRows(db.pool, 'attempts', 'endpoint_id = $1', [endpointId])).toBe(attemptsWhenOpened);
    const held = await deliveriesOf(db.pool, 'endpoint_id = $1', [endpointId]);
    expect(held.every((row) => row.state === 'pending')).toBe(true);
    for (const row of held) {
      expect(row.next_attempt_at.getTime()).toBeGreaterThanOrEqual(opened.circuit_open_until!.getTime() - 5);
    }

    // The wait ends: exactly one probe; it fails, and the circuit reopens for twice as long.
    const reopened = await waitUntil(
      async () => {
        const row = await endpointRow(endpointId);
        return row.circuit_state === 'open' && row.circuit_backoff_ms === 3000 ? row : null;
      },
      { what: 'the failed probe to reopen the circuit' },
    );
    expect(receiver.requests.length).toBe(requestsWhenOpened + 1);
    expect(reopened.consecutive_failures).toBe(settled.consecutive_failures + 1);
    expect(reopened.circuit_open_until!.getTime()).toBeGreaterThan(opened.circuit_open_until!.getTime() + 2000);

    // The receiver recovers: the next probe succeeds, the circuit closes and everything is delivered.
    receiver.respond(answer(200));
    const closed = await waitUntil(
      async () => {
        const row = await endpointRow(endpointId);
        return row.circuit_state === 'closed' ? row : null;
      },
      { timeoutMs: 8000, what: 'the circuit to close' },
    );
    expect(closed).toMatchObject({ consecutive_failures: 0, failing_since: null, circuit_open_until: null });
    expect(closed.last_success_at).not.toBeNull();
    await waitUntil(
      async () =>
        (await countRows(db.pool, 'deliveries', `endpoint_id = $1 AND state = 'succeeded'`, [endpointId])) === 3,
    );
    // 3 first attempts + 2 probes + the 2 deliveries released while the circuit was open.
    expect(receiver.requests.length).toBe(requestsWhenOpened + 2 + 2);
  });

  it('a success resets the failure count before it reaches the threshold', async () => {
    const { receiver, eventType, endpointId } = await endpointWith(500);
    await startTestWorker(db.url, {
      retrySchedule: [0],
      circuit: { failureThreshold: 3, openBaseMs: 60_000, openMaxMs: 60_000 },
    });
    for (let i = 0; i < 2; i++) {
      const messageId = await sendEvent(db.pool, appId, eventType, { i });
      await waitForDelivery(db.pool, messageId, (row) => row.state === 'dead');
    }
    expect(await endpointRow(endpointId)).toMatchObject({ consecutive_failures: 2, circuit_state: 'closed' });
    receiver.respond(answer(200));
    const messageId = await sendEvent(db.pool, appId, eventType, { ok: true });
    await waitForDelivery(db.pool, messageId, (row) => row.state === 'succeeded');
    const row = await endpointRow(endpointId);
    expect(row).toMatchObject({
      consecutive_failures: 0,
      circuit_state: 'closed',
      failing_since: null,
      last_error_class: 'http_5xx',
    });
    expect(row.last_success_at!.getTime()).toBeGreaterThan(row.last_failure_at!.getTime());
  });
});

describe('disabling endpoints', () => {
  it('a 410 Gone disables the endpoint, names the reason, and stops its other deliveries without attempts', async () => {
    const { receiver, eventType, endpointId } = await endpointWith(410);
    await startTestWorker(db.url, { retrySchedule: quickRetries });
    const gone = await sendEvent(db.pool, appId, eventType, { n: 1 });
    const dead = await waitForDelivery(db.pool, gone, (row) => row.state === 'dead');
    expect(dead).toMatchObject({ attempt_count: 1, last_status_code: 410, last_error_class: 'http_4xx' });
    const row = await endpointRow(endpointId);
    expect(row.enabled).toBe(false);
    expect(row.disabled_reason).toMatch(/410 Gone/);
    expect(row.disabled_at).not.toBeNull();

    // A delivery created before the endpoint was disabled (fanned out while enabled) is not attempted.
    // One transaction, so the running worker sees the delivery only with the endpoint already off. The
    // delivery is written as a fan-out writes it: a fan-out never sees a message of its own transaction
    // (migration 20261130090000_fanout_by_transaction), and the worker's, after the commit, finds the
    // endpoint off and writes none.
    const client = await db.pool.connect();
    let later: string;
    try {
      await client.query('BEGIN');
      later = await sendEvent(client, appId, eventType, { n: 2 });
      await client.query(
        `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, next_attempt_at, claimable_at)
         VALUES (hookline.new_uuid(hookline.uuid_of($2)), $1, hookline.uuid_of($2), $3, $4, now(), now())`,
        [appId, later, endpointId, eventType],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const released = await waitForDelivery(
      db.pool,
      later,
      (delivery) => delivery.next_attempt_at.getTime() > Date.now() + 60_000,
    );
    expect(released).toMatchObject({ state: 'pending', attempt_count: 0, lease_owner: null });
    expect(await attemptsOf(db.pool, released.id)).toHaveLength(0);
    expect(receiver.requests).toHaveLength(1);
  });

  it('auto-disables an endpoint whose failure streak is older than the limit, and only that one', async () => {
    const old = await endpointWith(500);
    const recent = await endpointWith(500);
    // Streaks that began 2 hours and 10 minutes ago; the limit is 1 hour.
    await db.pool.query(
      `UPDATE hookline.endpoints SET consecutive_failures = 40, failing_since = now() - interval '2 hours' WHERE id = $1`,
      [old.endpointId],
    );
    await db.pool.query(
      `UPDATE hookline.endpoints SET consecutive_failures = 4, failing_since = now() - interval '10 minutes' WHERE id = $1`,
      [recent.endpointId],
    );
    await startTestWorker(db.url, {
      retrySchedule: [0],
      autoDisableAfterMs: 60 * 60_000,
      circuit: { failureThreshold: 1000, openBaseMs: 1000, openMaxMs: 1000 },
    });
    const oldMessage = await sendEvent(db.pool, appId, old.eventType);
    const recentMessage = await sendEvent(db.pool, appId, recent.eventType);
    await waitForDelivery(db.pool, oldMessage, (row) => row.state === 'dead');
    await waitForDelivery(db.pool, recentMessage, (row) => row.state === 'dead');

    const disabled = await endpointRow(old.endpointId);
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabled_reason).toMatch(/^No successful delivery since .* UTC \(41 failed attempts in a row\)$/);
    const stillEnabled = await endpointRow(recent.endpointId);
    expect(stillEnabled).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 5 });
  });
});
