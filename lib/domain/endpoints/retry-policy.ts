// An endpoint's retry policy: the delay before each attempt and the per-attempt deadline. An endpoint
// may set its own, its app may set a default for its endpoints, and HOOKLINE_RETRY_SCHEDULE and
// HOOKLINE_DELIVERY_TIMEOUT_MS stay the deployment's default. The worker resolves the same chain in SQL
// (worker/sql/load-endpoints.sql); this is the API's and the dashboard's side of it.
import { getApiSettings } from '../../runtime/api-settings';
import { formatDuration, parseDuration } from '../../runtime/duration';

// 20 attempts cover any schedule a receiver asks for (Svix: 8, Stripe: ~16 over 3 days); more only
// keeps dead receivers' deliveries in the hot queue for longer.
export const MAX_RETRY_STEPS = 20;
// 3 days: the longest gap after which a retry is still worth sending (Stripe retries for 3 days in
// all). Longer waits belong to "recover" (replay since a time) once the receiver is fixed.
export const MAX_RETRY_DELAY_MS = 3 * 86_400_000;
// The range HOOKLINE_DELIVERY_TIMEOUT_MS allows: below 100 ms a TLS handshake to another region fails
// on its own; above 5 minutes a stalled receiver holds a connection slot and a lease for too long.
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 300_000;

export type PolicySource = 'endpoint' | 'app' | 'deployment';

export interface ScheduleProblem {
  /** Index of the offending step; null when the schedule as a whole is wrong. */
  index: number | null;
  message: string;
}

/**
 * Milliseconds before each attempt, from the syntax of HOOKLINE_RETRY_SCHEDULE ("0,5s,5m,2h") or a
 * JSON array of the same durations (numbers are milliseconds). The first entry stands for the first
 * attempt, which is always sent at once, so it must be 0: "5s,5m" would otherwise read as "first
 * retry after 5 s" while it means "first retry after 5 min, then dead".
 */
export function parseRetrySchedule(input: string | readonly (string | number)[]): number[] | ScheduleProblem {
  const steps = typeof input === 'string' ? input.split(',') : input;
  if (steps.length === 0 || (typeof input === 'string' && input.trim() === '')) {
    return { index: null, message: 'must list at least one delay, e.g. "0,5s,5m,2h"' };
  }
  if (steps.length > MAX_RETRY_STEPS) {
    return { index: null, message: `must list at most ${MAX_RETRY_STEPS} attempts, got ${steps.length}` };
  }
  const delays: number[] = [];
  for (const [index, step] of steps.entries()) {
    let ms: number;
    if (typeof step === 'number') {
      if (!Number.isInteger(step) || step < 0) {
        return { index, message: `must be a whole number of milliseconds or a duration such as "5m", got ${step}` };
      }
      ms = step;
    } else {
      try {
        ms = parseDuration(step);
      } catch (error) {
        return { index, message: (error as Error).message };
      }
    }
    if (ms > MAX_RETRY_DELAY_MS) {
      return { index, message: `${JSON.stringify(String(step).trim())} is longer than 3d, the longest delay allowed` };
    }
    delays.push(ms);
  }
  if (delays[0] !== 0) {
    return {
      index: 0,
      message:
        'must be 0: the first entry stands for the first attempt, which is sent at once (write "0,5s,5m" for retries after 5 s and 5 min)',
    };
  }
  return delays;
}

/** "0,5s,5m,2h": the syntax HOOKLINE_RETRY_SCHEDULE and the API accept. */
export function formatRetrySchedule(delays: readonly number[]): string {
  return delays.map((ms) => (ms === 0 ? '0' : formatDuration(ms))).join(',');
}

export interface StoredPolicy {
  /** Empty: inherit. */
  retryScheduleMs: number[];
  /** Null: inherit. */
  timeoutMs: number | null;
}

export interface EffectiveRetryPolicy {
  retryScheduleMs: number[];
  retryScheduleFrom: PolicySource;
  timeoutMs: number;
  timeoutFrom: PolicySource;
}

/** What the worker applies to this endpoint: its own setting, else its app's, else the deployment's. */
export function effectiveRetryPolicy(endpoint: StoredPolicy, app: StoredPolicy): EffectiveRetryPolicy {
  const settings = getApiSettings();
  const [retryScheduleMs, retryScheduleFrom]: [number[], PolicySource] =
    endpoint.retryScheduleMs.length > 0
      ? [endpoint.retryScheduleMs, 'endpoint']
      : app.retryScheduleMs.length > 0
        ? [app.retryScheduleMs, 'app']
        : [settings.retryScheduleMs, 'deployment'];
  const [timeoutMs, timeoutFrom]: [number, PolicySource] =
    endpoint.timeoutMs !== null
      ? [endpoint.timeoutMs, 'endpoint']
      : app.timeoutMs !== null
        ? [app.timeoutMs, 'app']
        : [settings.deliveryTimeoutMs, 'deployment'];
  return { retryScheduleMs, retryScheduleFrom, timeoutMs, timeoutFrom };
}

/** The policy as the API shows it. */
export function retryPolicyView(policy: EffectiveRetryPolicy) {
  return {
    retrySchedule: formatRetrySchedule(policy.retryScheduleMs),
    maxAttempts: policy.retryScheduleMs.length,
    retryScheduleFrom: policy.retryScheduleFrom,
    timeoutMs: policy.timeoutMs,
    timeoutFrom: policy.timeoutFrom,
  };
}
