import { z } from 'zod';
import { pageQuery, timestamp, type ResponseBody } from './common';
import { retryScheduleInput, timeoutMsInput } from './retry-policy';

export const appSummary = z.object({
  endpoints: z.number().int(),
  attempts24h: z.number().int().describe('Attempts in the 24 hours ending with the current hour'),
  successRate24h: z.number().nullable().describe('Succeeded share of attempts24h, 0..1; null without attempts'),
  queued: z.number().int().describe('Waiting, retrying and delivering, counted now'),
  queueCapped: z
    .boolean()
    .describe(
      'The listed apps hold more than 10,000 unfinished deliveries: the count stopped there, so queued and queue are lower bounds',
    ),
  queue: z
    .object({
      worker: z.number().int().describe('Waiting or retrying and due now: sent as soon as a worker is free'),
      circuit: z.number().int().describe("Held while their endpoint's circuit is open"),
      endpointEnabled: z.number().int().describe('Held while their endpoint is disabled'),
      retryTime: z.number().int().describe('Scheduled for later (a retry backoff)'),
      delivering: z.number().int().describe('Being sent now'),
    })
    .describe('The same deliveries by what they wait for; the five add up to queued'),
});

export type AppSummary = ResponseBody<typeof appSummary>;

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
  portalName: z.string().nullable().describe("The name the customer portal shows; null: the app's name"),
  portalLogoUrl: z.string().nullable().describe('An https URL of the logo the customer portal shows; null: none'),
  portalAccentColor: z.string().nullable().describe("The customer portal's accent colour, #rrggbb; null: the default"),
  summary: appSummary.optional().describe('Only when listed with summary=true'),
});
export type App = ResponseBody<typeof app>;

export const listAppsQuery = pageQuery.extend({
  summary: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe("Add each app's endpoint count, 24 h success rate and queued deliveries"),
  search: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only apps whose name or id contains this text, in any case (a picker finds one among thousands)'),
});

const appName = z.string().trim().min(1).max(200);
export const createAppBody = z.strictObject({
  name: appName,
  retrySchedule: retryScheduleInput.optional(),
  timeoutMs: timeoutMsInput.optional(),
});
// One CSP source expression per entry, and nothing else: a space, ";" or quote would let an entry add
// directives of its own to the portal's Content-Security-Policy, and a browser drops a source it cannot
// parse (a port of 99999), so the operator would see an origin listed that embeds nothing.
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why `origin` (trimmed, lower case) is not a frame-ancestors origin, or null when it is one. */
export function frameAncestorProblem(origin: string): string | null {
  const scheme = /^https?:\/\//.exec(origin)?.[0];
  if (!scheme) return 'must start with https:// or http://';
  const rest = origin.slice(scheme.length);
  if (/[\s;,'"]/.test(rest)) return 'must be one origin: no spaces, commas, semicolons or quotes';
  if (/[/?#]/.test(rest)) return 'must have no path, query or fragment (not even a trailing "/")';
  if (rest.includes('@')) return 'must have no user name or password';
  const [, host = '', port] = /^([^:]*)(?::(.*))?$/.exec(rest) ?? [];
  const labels = (host.startsWith('*.') ? host.slice(2) : host).split('.');
  if (host.length > 253 || !labels.every((label) => LABEL.test(label))) {
    return 'host must be a DNS name (labels of letters, digits and "-", at most 63 characters each), optionally starting with "*."';
  }
  if (port !== undefined && !(/^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65535)) {
    return 'port must be 1 to 65535';
  }
  return null;
}

export const frameAncestorOrigin = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((origin, context) => {
    const problem = frameAncestorProblem(origin);
    if (problem) {
      context.addIssue({
        code: 'custom',
        message: `${JSON.stringify(origin)} is not an origin: ${problem} (an origin is a scheme, host and port only, such as https://app.example.com, https://*.example.com or http://localhost:3000)`,
      });
    }
  })
  .describe('http(s)://host[:port]: no path; the host may start with "*."; a port is 1 to 65535');

// Branding is rendered into every customer's portal page, so it is held to what cannot carry markup or
// reach outside: React renders the name as text; the logo is an https URL (never javascript: or data:,
// and the portal's CSP img-src allows its origin only) without characters that could end an attribute
// or a CSP source; the colour is a 6-digit hex, the only thing that goes into a style attribute.
export const portalName = z.string().trim().min(1).max(200);

/** Why `url` (trimmed) is not a logo URL the portal may show, or null when it is one. */
export function portalLogoUrlProblem(url: string): string | null {
  if (url.length > 2000) return 'must be at most 2000 characters';
  if (/[\s"'<>;,\\]/.test(url))
    return 'must contain no spaces, quotes, angle brackets, commas, semicolons or backslashes';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.protocol !== 'https:' || !url.toLowerCase().startsWith('https://')) return 'must start with https://';
  if (parsed.username || parsed.password) return 'must have no user name or password';
  return null;
}

export const portalLogoUrl = z
  .string()
  .trim()
  // A scheme is case-insensitive (RFC 3986), so HTTPS:// is taken; the column's CHECK, which keeps
  // other writers to https as well, compares case-sensitively, so it is stored in lower case.
  .overwrite((url) => url.replace(/^https:/i, 'https:'))
  .superRefine((url, context) => {
    const problem = portalLogoUrlProblem(url);
    if (problem) context.addIssue({ code: 'custom', message: `${JSON.stringify(url)} is not a logo URL: ${problem}` });
  })
  .describe('https://… only; served from its own origin, which the portal allows images from');

export const portalAccentColor = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, 'must be a colour as #rrggbb (6 hex digits), such as #4f46e5')
  .describe('#rrggbb');

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
    portalName: portalName.nullable().optional().describe("null: show the app's name"),
    portalLogoUrl: portalLogoUrl.nullable().optional().describe('null: no logo'),
    portalAccentColor: portalAccentColor.nullable().optional().describe('null: the default colour'),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message:
      'send at least one of name, retrySchedule, timeoutMs, portalFrameAncestors, portalName, portalLogoUrl and portalAccentColor',
  });
