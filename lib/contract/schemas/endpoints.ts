import { z } from 'zod';
import { MAX_HEADER_NAME_LENGTH, MAX_HEADER_VALUE_LENGTH, MAX_HEADERS } from '../../domain/webhooks/header-problem';
import { eventTypeName, isoDate, timestamp, type ResponseBody } from './common';
import { effectiveRetryPolicy, retryScheduleInput, timeoutMsInput } from './retry-policy';

export const endpointHealth = z.object({
  circuitState: z.enum(['closed', 'open', 'half_open']),
  consecutiveFailures: z.number().int(),
  lastSuccessAt: timestamp.nullable(),
  lastFailureAt: timestamp.nullable(),
  lastErrorClass: z.string().nullable(),
  successRate24h: z.number().nullable().describe('Share of attempts in the last 24 h that succeeded, 0..1'),
  attempts24h: z.number().int(),
  pending: z
    .number()
    .int()
    .describe('Deliveries not finished yet (pending or delivering), counted up to a cap: see pendingCapped'),
  pendingCapped: z
    .boolean()
    .describe(
      'More than `pending` are unfinished: the count stopped there (10,000 for one endpoint; endpoints listed together share that, at least 100 each)',
    ),
});

export const endpoint = z.object({
  id: z.string(),
  appId: z.string(),
  url: z.string(),
  method: z
    .enum(['POST', 'GET', 'DELETE'])
    .describe('POST; GET or DELETE only for the implicit endpoints hookline.http_get and hookline.http_delete create'),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  disabledAt: timestamp.nullable(),
  maxConcurrency: z.number().int(),
  rateLimitPerSecond: z.number().int().nullable(),
  heldByRateLimit: z
    .boolean()
    .optional()
    .describe(
      'Whether its rate limit is holding deliveries back now (a worker asked for more tokens than it got in the last 5 s); on a single endpoint only',
    ),
  headers: z.record(z.string(), z.string()),
  implicit: z.boolean(),
  retrySchedule: z.string().nullable().describe("This endpoint's own schedule; null: the app's, else the deployment's"),
  timeoutMs: z
    .number()
    .int()
    .nullable()
    .describe("This endpoint's own deadline; null: the app's, else the deployment's"),
  retryPolicy: effectiveRetryPolicy,
  createdAt: timestamp,
  updatedAt: timestamp,
  health: endpointHealth,
});
export type Endpoint = ResponseBody<typeof endpoint>;
export type CircuitState = Endpoint['health']['circuitState'];

export const listEndpointsQuery = z.object({
  search: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Only endpoints whose URL, description or id contains this text, in any case'),
});

export const endpointWithSecret = endpoint.extend({ secret: z.string() });
export type EndpointWithSecret = ResponseBody<typeof endpointWithSecret>;

const url = z.string().min(1).max(2048).describe('http or https URL of the receiver');
// Names are judged by headerProblem (lib/domain/webhooks/header-problem.ts), which says what is wrong; a
// length on the key schema would only say "Invalid key in record".
const headers = z
  .record(z.string(), z.string().max(MAX_HEADER_VALUE_LENGTH, `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`))
  .describe(
    `Extra request headers, at most ${MAX_HEADERS}; names of at most ${MAX_HEADER_NAME_LENGTH} token characters, values without control characters; webhook-*, Host, Content-Type, Content-Length, Transfer-Encoding and the connection headers are reserved`,
  );
const secret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, 'must be "whsec_" followed by 24 to 64 bytes of base64')
  .describe('Signing secret; generated when omitted');

export const createEndpointBody = z.strictObject({
  url,
  description: z.string().max(2000).optional(),
  eventTypes: z.array(eventTypeName).max(100).optional().describe('Event types to receive; empty or omitted = all'),
  maxConcurrency: z.number().int().min(1).max(1000).optional(),
  rateLimitPerSecond: z.number().int().min(1).max(100_000).nullable().optional(),
  headers: headers.optional(),
  secret: secret.optional(),
  retrySchedule: retryScheduleInput.optional(),
  timeoutMs: timeoutMsInput.optional(),
});

export const updateEndpointBody = z.strictObject({
  url: url.optional(),
  description: z.string().max(2000).optional(),
  eventTypes: z.array(eventTypeName).max(100).optional(),
  maxConcurrency: z.number().int().min(1).max(1000).optional(),
  rateLimitPerSecond: z.number().int().min(1).max(100_000).nullable().optional(),
  headers: headers.optional(),
  retrySchedule: retryScheduleInput.optional(),
  timeoutMs: timeoutMsInput.optional(),
});

export const disableEndpointBody = z.strictObject({ reason: z.string().max(500).optional() });

export const endpointSecrets = z.object({
  secrets: z.array(z.object({ secret: z.string(), createdAt: timestamp, expiresAt: timestamp.nullable() })),
});
export type EndpointSecrets = ResponseBody<typeof endpointSecrets>;

export const rotateSecretBody = z.strictObject({
  gracePeriodSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional()
    .describe('How long the old secret keeps signing (default 86400, at most 7 days)'),
});

export const rotateSecretResult = z.object({ secret: z.string() });
export type RotatedSecret = ResponseBody<typeof rotateSecretResult>;

export const testEndpointBody = z.strictObject({
  eventType: eventTypeName.optional().describe('Defaults to "hookline.test"'),
});

export const recoverEndpointBody = z.strictObject({
  since: isoDate,
  dryRun: z.boolean().optional().describe('Only count what would be replayed; changes nothing'),
});
