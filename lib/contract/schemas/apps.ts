import { z } from 'zod';
import { pageQuery, timestamp, type ResponseBody } from './common';
import { retryScheduleInput, timeoutMsInput } from './retry-policy';

export const appSummary = z.object({
  endpoints: z.number().int(),
  attempts24h: z.number().int().describe('Attempts in the 24 hours ending with the current hour'),
  successRate24h: z.number().nullable().describe('Succeeded share of attempts24h, 0..1; null without attempts'),
  queued: z.number().int().nullable().describe('Waiting, retrying and delivering at the latest queue sample'),
  queuedSampledAt: timestamp.nullable().describe('When the workers took that sample (once a minute)'),
});

export const app = z.object({
  id: z.string(),
  name: z.string(),
  retrySchedule: z
    .string()
    .nullable()
    .describe("Default schedule of the app's endpoints; null: HOOKLINE_RETRY_SCHEDULE"),
  timeoutMs: z
    .number()
    .int()
    .nullable()
    .describe("Default deadline of the app's endpoints; null: HOOKLINE_DELIVERY_TIMEOUT_MS"),
  createdAt: timestamp,
  updatedAt: timestamp,
  portalFrameAncestors: z
    .array(z.string())
    .describe("Origins allowed to embed the app's customer portal in an iframe; empty: none"),
  summary: appSummary.optional().describe('Only when listed with summary=true'),
});
export type App = ResponseBody<typeof app>;

export const listAppsQuery = pageQuery.extend({
  summary: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe("Add each app's endpoint count, 24 h success rate and queued deliveries"),
});

const appName = z.string().trim().min(1).max(200);
export const createAppBody = z.strictObject({
  name: appName,
  retrySchedule: retryScheduleInput.optional(),
  timeoutMs: timeoutMsInput.optional(),
});
// One CSP source expression per entry, and nothing else: a space, ";" or quote would let an entry add
// directives of its own to the portal's Content-Security-Policy.
export const frameAncestorOrigin = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/,
    'must be an origin such as https://app.example.com, https://*.example.com or http://localhost:3000 (scheme, host and port only)',
  );

export const updateAppBody = z
  .strictObject({
    name: appName.optional(),
    retrySchedule: retryScheduleInput.optional(),
    timeoutMs: timeoutMsInput.optional(),
    portalFrameAncestors: z
      .array(frameAncestorOrigin)
      .max(20)
      .describe("Origins allowed to embed the app's customer portal in an iframe (at most 20); [] allows none")
      .optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'send at least one of name, retrySchedule, timeoutMs and portalFrameAncestors',
  });
