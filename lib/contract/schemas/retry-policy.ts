// The retry policy fields shared by endpoints and apps (lib/domain/endpoints/retry-policy.ts has the rules).
import { z } from 'zod';
import {
  MAX_RETRY_STEPS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  parseRetrySchedule,
} from '../../domain/endpoints/retry-policy';

/** In a request: the env var's syntax or a JSON array; null clears it (inherit). Parsed to milliseconds. */
export const retryScheduleInput = z
  .union([z.string().max(1000), z.array(z.union([z.string().max(50), z.number()])).max(100)], {
    error: 'must be a string such as "0,5s,5m,2h" or an array of durations such as ["0", "5s", 300000]',
  })
  .nullable()
  .transform((value, ctx) => {
    if (value === null) return null;
    const parsed = parseRetrySchedule(value);
    if (Array.isArray(parsed)) return parsed;
    ctx.addIssue({ code: 'custom', message: parsed.message, path: parsed.index === null ? [] : [parsed.index] });
    return z.NEVER;
  })
  .describe(
    `Delay before each attempt, as HOOKLINE_RETRY_SCHEDULE writes it ("0,5s,5m,2h") or as a JSON array (["0", "5s", "5m"]; numbers are milliseconds). The first entry is the first attempt and must be 0; at most ${MAX_RETRY_STEPS} entries, each at most 3d. null: inherit`,
  );

export const timeoutMsInput = z
  .number()
  .int()
  .min(MIN_TIMEOUT_MS)
  .max(MAX_TIMEOUT_MS)
  .nullable()
  .describe(`Per-attempt deadline in milliseconds, ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}; null: inherit`);

const source = z.enum(['endpoint', 'app', 'deployment']);

/** What the worker applies, and where each value comes from. */
export const effectiveRetryPolicy = z.object({
  retrySchedule: z.string().describe('e.g. "0,5s,5m,30m"'),
  maxAttempts: z.number().int(),
  retryScheduleFrom: source,
  timeoutMs: z.number().int(),
  timeoutFrom: source,
});
