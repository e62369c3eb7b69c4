// Why a waiting or retrying delivery has not been sent, from the rows as they are (table-driven).
import { describe, expect, it } from 'vitest';
import {
  deliveryStatesWhere,
  deliveryStateOf,
  expandStateFilter,
} from '../../../lib/domain/deliveries/delivery-states';
import { explainWait } from '../../../lib/domain/deliveries/explain-wait';

const now = new Date('2026-11-23T12:00:00.000Z');
const later = new Date('2026-11-23T12:05:00.000Z');
const closed = { enabled: true, disabledReason: null, circuitState: 'closed', circuitOpenUntil: null };

describe('explainWait', () => {
  it.each([
    [
      'a retry scheduled',
      { state: 'retrying', attemptCount: 2, nextAttemptAt: later, endpoint: closed },
      {
        reason: 'retry_scheduled',
        until: later,
        nextAttempt: 3,
        message: 'Retry 2 of 7: attempt 3 of 8 at 2026-11-23T12:05:00.000Z.',
      },
    ],
    [
      'a first attempt due',
      { state: 'waiting', attemptCount: 0, nextAttemptAt: now, endpoint: closed },
      {
        reason: 'due',
        until: null,
        nextAttempt: 1,
        message: 'Due now: attempt 1 of 8 is sent as soon as a worker is free.',
      },
    ],
    [
      'an open circuit, before the retry time',
      {
        state: 'retrying',
        attemptCount: 1,
        nextAttemptAt: now,
        endpoint: { ...closed, circuitState: 'open', circuitOpenUntil: later },
      },
      {
        reason: 'circuit_open',
        until: later,
        message: expect.stringMatching(/^Circuit open until 2026-11-23T12:05:00.000Z/),
      },
    ],
    [
      'a disabled endpoint, which wins over everything',
      {
        state: 'waiting',
        attemptCount: 0,
        nextAttemptAt: later,
        endpoint: {
          ...closed,
          enabled: false,
          disabledReason: 'failing for 3 days',
          circuitState: 'open',
          circuitOpenUntil: later,
        },
      },
      {
        reason: 'endpoint_disabled',
        until: null,
        message: 'Endpoint disabled because failing for 3 days: attempt 1 of 8 waits until it is enabled again.',
      },
    ],
    [
      'a replayed dead delivery, past its schedule',
      { state: 'retrying', attemptCount: 8, nextAttemptAt: later, endpoint: closed },
      {
        reason: 'retry_scheduled',
        nextAttempt: 9,
        message: "Attempt 9 (a replay; the schedule's 8 are used up) at 2026-11-23T12:05:00.000Z.",
      },
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(explainWait({ ...input, maxAttempts: 8, now })).toMatchObject(expected);
  });

  it.each(['delivering', 'succeeded', 'dead', 'cancelled'] as const)('says nothing for %s', (state) => {
    expect(
      explainWait({ state, attemptCount: 1, nextAttemptAt: later, endpoint: closed, maxAttempts: 8, now }),
    ).toBeNull();
  });
});

describe('delivery states', () => {
  it('splits the stored pending on attempt_count and keeps the others', () => {
    expect(deliveryStateOf({ state: 'pending', attemptCount: 0 })).toBe('waiting');
    expect(deliveryStateOf({ state: 'pending', attemptCount: 3 })).toBe('retrying');
    expect(deliveryStateOf({ state: 'dead', attemptCount: 8 })).toBe('dead');
  });

  it('expands filter names and turns states into conditions on the stored rows', () => {
    expect(expandStateFilter('failed')).toEqual(['retrying', 'dead']);
    expect(expandStateFilter('pending')).toEqual(['waiting', 'retrying']);
    // Pending and dead rows named with the predicates of the partial indexes that hold them.
    expect(deliveryStatesWhere(['waiting', 'retrying'])).toEqual({ state: 'pending', claimableAt: { not: null } });
    expect(deliveryStatesWhere(['retrying', 'dead'])).toEqual({
      OR: [
        { state: 'pending', claimableAt: { not: null }, attemptCount: { gt: 0 } },
        { state: 'dead', lastErrorClass: { not: null }, claimableAt: null },
      ],
    });
    expect(deliveryStatesWhere(['succeeded'])).toEqual({ state: { in: ['succeeded'] } });
  });
});
