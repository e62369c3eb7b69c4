// The circuit breaker's transitions and auto-disable, as the SQL functions every result flush applies
// (migration 20261124150000_worker_rules), table by table. test/worker/circuit-breaker.test.ts drives
// the same rules end to end through a real worker and receiver.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});

const THRESHOLD = 3;
const BASE_MS = 30_000;
const MAX_MS = 100_000;

interface Circuit {
  state: 'closed' | 'open' | 'half_open';
  failures: number;
  backoffMs: number | null;
  /** Seconds from now; null: no wait. */
  openForS: number | null;
}

async function circuitAfter(before: Circuit, failuresAfterSuccess: number, succeeded: boolean): Promise<Circuit> {
  const { rows } = await db.pool.query<{
    next_consecutive_failures: number;
    next_state: Circuit['state'];
    next_backoff_ms: number | null;
    open_for_s: number | null;
  }>(
    `SELECT c.next_consecutive_failures, c.next_state, c.next_backoff_ms,
            round(extract(epoch FROM c.next_open_until - now()))::int AS open_for_s
       FROM hookline.circuit_after_attempts($1, $2, $3, now() + make_interval(secs => $4), $5, $6, $7, $8, $9) AS c`,
    [
      before.state,
      before.failures,
      before.backoffMs,
      before.openForS,
      failuresAfterSuccess,
      succeeded,
      THRESHOLD,
      BASE_MS,
      MAX_MS,
    ],
  );
  const row = rows[0]!;
  return {
    state: row.next_state,
    failures: row.next_consecutive_failures,
    backoffMs: row.next_backoff_ms,
    openForS: row.open_for_s,
  };
}

const closed = (failures: number): Circuit => ({ state: 'closed', failures, backoffMs: null, openForS: null });

describe('hookline.circuit_after_attempts', () => {
  it.each<[string, Circuit, number, boolean, Circuit]>([
    ['a success closes and clears the count', closed(2), 0, true, closed(0)],
    ['failures count up while under the threshold', closed(1), 1, false, closed(2)],
    [
      'the failure that reaches the threshold opens it for the base wait',
      closed(2),
      1,
      false,
      { state: 'open', failures: 3, backoffMs: BASE_MS, openForS: 30 },
    ],
    ['a success in the batch restarts the count from the failures after it', closed(2), 1, true, closed(1)],
    [
      'enough failures after a success open it on their own',
      closed(0),
      3,
      true,
      { state: 'open', failures: 3, backoffMs: BASE_MS, openForS: 30 },
    ],
    [
      'a failed probe reopens it for twice the wait',
      { state: 'half_open', failures: 5, backoffMs: BASE_MS, openForS: 0 },
      1,
      false,
      { state: 'open', failures: 6, backoffMs: 60_000, openForS: 60 },
    ],
    [
      'doubling stops at the maximum',
      { state: 'half_open', failures: 9, backoffMs: 60_000, openForS: 0 },
      1,
      false,
      { state: 'open', failures: 10, backoffMs: MAX_MS, openForS: 100 },
    ],
    [
      'a successful probe closes it',
      { state: 'half_open', failures: 5, backoffMs: BASE_MS, openForS: 0 },
      0,
      true,
      closed(0),
    ],
    [
      'failures of attempts in flight when it opened leave the wait alone',
      { state: 'open', failures: 3, backoffMs: BASE_MS, openForS: 20 },
      2,
      false,
      { state: 'open', failures: 5, backoffMs: BASE_MS, openForS: 20 },
    ],
  ])('%s', async (_, before, failuresAfterSuccess, succeeded, expected) => {
    const after = await circuitAfter(before, failuresAfterSuccess, succeeded);
    expect(after).toEqual(expected);
    // The invariant: a wait exists exactly when the circuit is not closed.
    expect(after.backoffMs === null && after.openForS === null).toBe(after.state === 'closed');
  });
});

describe('hookline.disabled_after_attempts', () => {
  async function disabledAfter(options: {
    enabled?: boolean;
    streakSinceHoursAgo: number;
    succeeded?: boolean;
    gone?: boolean;
    autoDisableAfterHours: number;
  }) {
    const { rows } = await db.pool.query<{ next_enabled: boolean; next_reason: string | null; disabled_now: boolean }>(
      `SELECT d.next_enabled, d.next_reason, coalesce(d.next_disabled_at = now(), false) AS disabled_now
         FROM hookline.disabled_after_attempts($1, $2, NULL, 7, now() - make_interval(hours => $3), $4,
                                                CASE WHEN $5 THEN timestamptz '2026-11-24 10:00:00+00' END,
                                                $6 * 3600000) AS d`,
      [
        options.enabled ?? true,
        options.enabled === false ? 'turned off by hand' : null,
        options.streakSinceHoursAgo,
        options.succeeded ?? false,
        options.gone ?? false,
        options.autoDisableAfterHours,
      ],
    );
    return rows[0]!;
  }

  it('disables on 410 Gone at once, naming when', async () => {
    expect(await disabledAfter({ streakSinceHoursAgo: 0, gone: true, autoDisableAfterHours: 0 })).toEqual({
      next_enabled: false,
      next_reason: 'The receiver answered 410 Gone at 2026-11-24 10:00:00 UTC',
      disabled_now: true,
    });
  });

  it('disables after a failure streak longer than the setting, naming its start and length', async () => {
    const result = await disabledAfter({ streakSinceHoursAgo: 3, autoDisableAfterHours: 2 });
    expect(result.next_enabled).toBe(false);
    expect(result.next_reason).toMatch(
      /^No successful delivery since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(7 failed attempts in a row\)$/,
    );
  });

  it.each([
    ['a streak shorter than the setting', { streakSinceHoursAgo: 1, autoDisableAfterHours: 2 }],
    ['auto-disable turned off (0)', { streakSinceHoursAgo: 300, autoDisableAfterHours: 0 }],
    ['a success in the batch', { streakSinceHoursAgo: 3, succeeded: true, autoDisableAfterHours: 2 }],
  ])('leaves it enabled for %s', async (_, options) => {
    expect(await disabledAfter(options)).toEqual({ next_enabled: true, next_reason: null, disabled_now: false });
  });

  it('keeps the reason of an endpoint that was already disabled', async () => {
    expect(
      await disabledAfter({ enabled: false, streakSinceHoursAgo: 3, gone: true, autoDisableAfterHours: 2 }),
    ).toEqual({
      next_enabled: false,
      next_reason: 'turned off by hand',
      disabled_now: false,
    });
  });
});
