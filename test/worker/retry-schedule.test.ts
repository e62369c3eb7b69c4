// The retry schedule: table-driven for the pure rules, then against the database for the
// next_attempt_at a real failed attempt leaves behind (with and without Retry-After).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/runtime/env';
import { nextRetryDelay, parseRetryAfter } from '../../worker/retry-schedule';
import { attemptsOf, sendEvent, waitForDelivery } from '../support/deliveries';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { answer, startReceiver, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const defaultSchedule = loadConfig({}).HOOKLINE_RETRY_SCHEDULE;

describe('the default schedule', () => {
  it('is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(defaultSchedule).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
  });

  it('reads HOOKLINE_RETRY_SCHEDULE and names the variable when it is wrong', () => {
    expect(loadConfig({ HOOKLINE_RETRY_SCHEDULE: '0,1s,1m' }).HOOKLINE_RETRY_SCHEDULE).toEqual([0, S, M]);
    expect(() => loadConfig({ HOOKLINE_RETRY_SCHEDULE: '0,soon' })).toThrow(/HOOKLINE_RETRY_SCHEDULE.*"soon"/);
  });
});

describe('nextRetryDelay', () => {
  const exactly = (value: number) => () => value;
  it.each([
    // attempts made, random(), expected delay (ms) or null for dead
    [1, 0.5, 5 * S],
    [2, 0.5, 5 * M],
    [3, 0.5, 30 * M],
    [4, 0.5, 2 * H],
    [5, 0.5, 5 * H],
    [6, 0.5, 10 * H],
    [7, 0.5, 10 * H],
    [8, 0.5, null],
    [20, 0.5, null],
    // ±20% jitter: random() = 0 gives -20%, random() -> 1 gives +20%.
    [1, 0, 4 * S],
    [1, 1, 6 * S],
    [3, 0, 24 * M],
    [3, 1, 36 * M],
  ])('after %i attempts with random %d: %s ms', (attemptsMade, random, expected) => {
    expect(nextRetryDelay(defaultSchedule, attemptsMade, { random: exactly(random) })).toBe(expected);
  });

  it.each([
    // scheduled delay 5 min; Retry-After is clamped to [1x, 2x] of it
    [30 * S, 5 * M],
    [5 * M, 5 * M],
    [7 * M, 7 * M],
    [10 * M, 10 * M],
    [3 * H, 10 * M],
  ])('Retry-After %i ms after the 2nd attempt gives %i ms', (retryAfterMs, expected) => {
    expect(nextRetryDelay(defaultSchedule, 2, { retryAfterMs, random: exactly(0) })).toBe(expected);
  });

  it('a Retry-After cannot revive a delivery whose schedule is used up', () => {
    expect(nextRetryDelay(defaultSchedule, 8, { retryAfterMs: 1000 })).toBeNull();
  });

  it('spreads deliveries that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => nextRetryDelay(defaultSchedule, 3)));
    expect(delays.size).toBeGreaterThan(40);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(24 * M);
      expect(delay).toBeLessThanOrEqual(36 * M);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    ['120', 120 * S],
    [' 7 ', 7 * S],
    ['Sun, 22 Nov 2026 12:01:30 GMT', 90 * S],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 0],
    ['soon', null],
    ['', null],
    [undefined, null],
  ])('%j -> %s', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('next_attempt_at after a failed attempt', () => {
  let db: TestDatabase;
  let appId: string;
  let receiver: Receiver;
  // 2nd attempt 60 s after the first: long enough that the test sees it scheduled, not sent.
  const schedule = [0, 60 * S, 60 * S];

  beforeAll(async () => {
    db = await createTestDatabase();
    appId = await createApp(db.pool);
    receiver = await startReceiver();
    await startTestWorker(db.url, { retrySchedule: schedule });
  });

  afterAll(async () => {
    await stopTestWorkers();
    await receiver.close();
  });

  async function failOnce(status: number, headers: Record<string, string>) {
    const eventType = `status.${status}.${Object.keys(headers).length}`;
    await createEventType(db.pool, appId, eventType);
    const failing = await startReceiver(answer(status, 'no', headers));
    await createEndpoint(db.pool, appId, failing.url, { eventTypes: [eventType] });
    const messageId = await sendEvent(db.pool, appId, eventType);
    const delivery = await waitForDelivery(db.pool, messageId, (row) => row.attempt_count === 1);
    const [attempt] = await attemptsOf(db.pool, delivery.id);
    await failing.close();
    return { delivery, delayMs: delivery.next_attempt_at.getTime() - attempt!.started_at.getTime() };
  }

  it('is the scheduled delay with ±20% jitter', async () => {
    const { delivery, delayMs } = await failOnce(500, {});
    expect(delivery.state).toBe('pending');
    expect(delayMs).toBeGreaterThanOrEqual(48 * S - 100);
    expect(delayMs).toBeLessThanOrEqual(72 * S + 1000);
  });

  it('honours Retry-After on 429 within [1x, 2x] the scheduled delay', async () => {
    const { delayMs } = await failOnce(429, { 'retry-after': '90' });
    expect(delayMs).toBeGreaterThanOrEqual(90 * S - 100);
    expect(delayMs).toBeLessThanOrEqual(90 * S + 1000);
  });

  it('clamps a Retry-After of one day on 503 to twice the scheduled delay', async () => {
    const { delayMs } = await failOnce(503, { 'retry-after': '86400' });
    expect(delayMs).toBeGreaterThanOrEqual(120 * S - 100);
    expect(delayMs).toBeLessThanOrEqual(120 * S + 1000);
  });

  it('ignores Retry-After on other statuses', async () => {
    const { delayMs } = await failOnce(500, { 'retry-after': '86400', 'x-second': '1' });
    expect(delayMs).toBeLessThanOrEqual(72 * S + 1000);
  });
});
