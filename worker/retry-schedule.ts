// When a failed delivery is tried again. The schedule lists the delay before each attempt: the
// first entry (normally 0) is the first attempt, so after attempt n fails the next one waits
// schedule[n]; when the schedule is used up the delivery is dead. Default, as Svix and Standard
// Webhooks receivers expect: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts over
// ~28 hours).
export const JITTER = 0.2;

export interface RetryDecision {
  /** null: the schedule is exhausted, the delivery is dead. */
  delayMs: number | null;
}

/**
 * Delay before the attempt after `attemptsMade` attempts, with ±20% jitter so that deliveries that
 * failed together (an endpoint outage) do not all come back in the same instant. A Retry-After
 * from the receiver (429 or 503) is honoured but clamped to [1x, 2x] the scheduled delay: a receiver
 * may slow us down, not stall a delivery for days or make us hammer it.
 */
export function nextRetryDelay(
  schedule: readonly number[],
  attemptsMade: number,
  options: { retryAfterMs?: number | null; random?: () => number } = {},
): number | null {
  const scheduled = schedule[attemptsMade];
  if (scheduled === undefined) return null;
  const random = options.random ?? Math.random;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  const retryAfter = options.retryAfterMs;
  if (retryAfter === null || retryAfter === undefined) return jittered;
  return Math.min(Math.max(retryAfter, scheduled), 2 * scheduled);
}

/** Parses Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
