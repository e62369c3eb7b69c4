import type { DeliveryState } from './delivery-states';

export type WaitReason = 'endpoint_disabled' | 'circuit_open' | 'retry_scheduled' | 'due';

export interface WaitExplanation {
  reason: WaitReason;
  /** When the worker will look at it again; null when it is due now or waits for an operator. */
  until: Date | null;
  /** The attempt it waits to make (1-based) and how many the retry schedule allows. */
  nextAttempt: number;
  maxAttempts: number;
  message: string;
}

/**
 * Why a waiting or retrying delivery has not been sent, from what the rows hold today: the endpoint's
 * enabled flag and circuit (the worker releases a claimed delivery to circuit_open_until while the
 * circuit is open, and rechecks a disabled endpoint later, without spending an attempt), else the
 * delivery's next_attempt_at against its attempt_count and the retry schedule's length.
 * Null for any other state: nothing is waiting.
 */
export function explainWait({
  state,
  attemptCount,
  nextAttemptAt,
  endpoint,
  maxAttempts,
  now = new Date(),
}: {
  state: DeliveryState;
  attemptCount: number;
  nextAttemptAt: Date | null;
  endpoint: { enabled: boolean; disabledReason: string | null; circuitState: string; circuitOpenUntil: Date | null };
  maxAttempts: number;
  now?: Date;
}): WaitExplanation | null {
  if (state !== 'waiting' && state !== 'retrying') return null;
  const nextAttempt = attemptCount + 1;
  // A replay keeps attempt_count, so a replayed dead delivery makes one attempt past the schedule.
  const pastSchedule = nextAttempt > maxAttempts;
  const attemptText = pastSchedule
    ? `attempt ${nextAttempt} (a replay; the schedule's ${maxAttempts} are used up)`
    : `attempt ${nextAttempt} of ${maxAttempts}`;
  if (!endpoint.enabled) {
    return {
      reason: 'endpoint_disabled',
      until: null,
      nextAttempt,
      maxAttempts,
      message: `Endpoint disabled${endpoint.disabledReason ? ` because ${endpoint.disabledReason}` : ''}: ${attemptText} waits until it is enabled again.`,
    };
  }
  if (endpoint.circuitState !== 'closed' && endpoint.circuitOpenUntil && endpoint.circuitOpenUntil > now) {
    return {
      reason: 'circuit_open',
      until: endpoint.circuitOpenUntil,
      nextAttempt,
      maxAttempts,
      message: `Circuit ${endpoint.circuitState.replace('_', '-')} until ${endpoint.circuitOpenUntil.toISOString()}: the endpoint kept failing, so ${attemptText} waits for a probe to succeed.`,
    };
  }
  if (nextAttemptAt && nextAttemptAt > now) {
    return {
      reason: 'retry_scheduled',
      until: nextAttemptAt,
      nextAttempt,
      maxAttempts,
      message:
        attemptCount > 0 && !pastSchedule
          ? `Retry ${attemptCount} of ${maxAttempts - 1}: ${attemptText} at ${nextAttemptAt.toISOString()}.`
          : `${attemptText[0]!.toUpperCase()}${attemptText.slice(1)} at ${nextAttemptAt.toISOString()}.`,
    };
  }
  return {
    reason: 'due',
    until: null,
    nextAttempt,
    maxAttempts,
    message: `Due now: ${attemptText} is sent as soon as a worker is free.`,
  };
}
