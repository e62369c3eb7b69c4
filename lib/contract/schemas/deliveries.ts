import { z } from 'zod';
import { cursorQuery, eventTypeName, isoDate, limitQuery, timestamp, type ResponseBody } from './common';
import { DELIVERY_STATE_FILTERS, DELIVERY_STATES } from '../../domain/deliveries/delivery-states';
import { ERROR_CLASSES } from '../../domain/deliveries/error-classes';
import { job } from './job';
import { idempotencyKeyHeader, message } from './messages';
import { payloadSearchProblems, payloadSearchQuery } from './payload-search';

export const delivery = z.object({
  id: z.string(),
  appId: z.string(),
  messageId: z.string(),
  endpointId: z.string(),
  endpointUrl: z.string(),
  eventType: z.string(),
  state: z
    .enum(DELIVERY_STATES)
    .describe(
      'waiting: not tried yet; retrying: failed at least once, next attempt scheduled; delivering; succeeded; dead: retries exhausted; cancelled',
    ),
  attemptCount: z.number().int(),
  nextAttemptAt: timestamp.nullable(),
  lastAttemptAt: timestamp.nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastErrorClass: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Delivery = ResponseBody<typeof delivery>;

export const attempt = z.object({
  id: z.string().nullable().describe('null for a success kept on its delivery (keptOnDelivery)'),
  deliveryId: z.string(),
  attemptNumber: z.number().int(),
  workerId: z.string().nullable(),
  startedAt: timestamp,
  durationMs: z.number(),
  statusCode: z.number().int().nullable(),
  errorClass: z.string().nullable(),
  errorMessage: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.unknown()),
  responseHeaders: z.record(z.string(), z.unknown()).nullable(),
  responseBody: z.string().nullable(),
  responseTruncated: z.boolean(),
  keptOnDelivery: z
    .boolean()
    .describe(
      'true: a success recorded on its delivery row alone (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS off; id null), or moved from there to an attempt row of its own when a replay sent the delivery again: status, time and duration as recorded, request headers rebuilt with the secrets valid then, response not kept',
    ),
});

export type Attempt = ResponseBody<typeof attempt>;

export const messageDetail = message.extend({ deliveries: z.array(delivery) });
export type MessageDetail = ResponseBody<typeof messageDetail>;

export const deliveryWait = z
  .object({
    reason: z.enum(['endpoint_disabled', 'circuit_open', 'retry_scheduled', 'due']),
    until: timestamp.nullable(),
    nextAttempt: z.number().int(),
    maxAttempts: z.number().int(),
    message: z.string(),
  })
  .describe('Why a waiting or retrying delivery has not been sent yet');

export const deliveryRequest = z
  .object({
    method: z
      .enum(['POST', 'GET', 'DELETE'])
      .describe('POST, or GET / DELETE for the endpoints hookline.http_get and hookline.http_delete create'),
    url: z.string().describe("The endpoint's URL now (attempts do not record it)"),
    body: z.string().describe('The exact bytes every attempt sends, empty for none (GET); the signatures cover them'),
  })
  .describe("What each attempt sends; the attempt's requestHeaders carry its timestamp and signatures");

export const deliveryDetail = delivery.extend({
  wait: deliveryWait.nullable(),
  request: deliveryRequest,
  attempts: z.array(attempt),
  message,
});
export type DeliveryDetail = ResponseBody<typeof deliveryDetail>;

// The filter keys shared by the list query and the replay-by-filter body. Query strings carry only
// strings, so numbers are coerced.
export const deliveryFilter = z.strictObject({
  endpointId: z.string().min(1).max(200).optional(),
  eventType: eventTypeName.optional(),
  state: z
    .enum(DELIVERY_STATE_FILTERS)
    .optional()
    .describe('A state, or `failed` (retrying or dead), or `pending` (waiting or retrying, the name before the split)'),
  errorClass: z.enum(ERROR_CLASSES).optional().describe("The latest attempt's error class"),
  statusCode: z.coerce.number().int().min(100).max(599).optional().describe("The latest attempt's status code"),
  attemptCount: z.coerce.number().int().min(0).max(1000).optional().describe('Exactly this many attempts made'),
  minAttempts: z.coerce.number().int().min(0).max(1000).optional().describe('At least this many attempts made'),
  messageId: z.string().min(1).max(200).optional().describe('The message id, which is also the webhook-id header'),
  idempotencyKey: idempotencyKeyHeader.optional().describe("The message's idempotency key"),
  from: isoDate.optional().describe('Created at or after'),
  to: isoDate.optional().describe('Created before'),
  id: z.string().min(1).max(200).optional().describe('One delivery id'),
});

export type DeliveryFilter = z.infer<typeof deliveryFilter>;

// A replay by filter takes the list's payload search too, so it acts on exactly the rows the explorer
// shows: the dry run counts them and the job's batches select them with the same payload conditions
// (lib/domain/search/payload-condition.ts, worker/sql/job-replay-batch.sql).
export const replayDeliveryFilter = z
  .strictObject({ ...deliveryFilter.shape, ...payloadSearchQuery })
  .superRefine((filter, context) => {
    for (const problem of payloadSearchProblems(filter)) context.addIssue({ code: 'custom', ...problem });
  });
export type ReplayDeliveryFilter = z.infer<typeof replayDeliveryFilter>;

export const listDeliveriesQuery = z.object({
  ...deliveryFilter.shape,
  ...payloadSearchQuery,
  limit: limitQuery,
  cursor: cursorQuery,
});

const replayByIds = z.strictObject({ deliveryIds: z.array(z.string().min(1).max(200)).min(1).max(1000) });
const replayByFilter = z.strictObject({ filter: replayDeliveryFilter, dryRun: z.boolean().optional() });

// A body is replayed by ids when it names deliveryIds, else by filter. Left to z.union, a body that
// fits neither answered one "Invalid input" for the whole body: the union cannot tell which form was
// meant, so it names no field. The form is chosen here by that key and checked alone, so its problems
// name their fields (filter.state, dryRun) as POST /jobs does; the union behind it is what the OpenAPI
// document shows (a preprocess documents its target schema) and what the handler receives.
export const replayDeliveriesBody = z.preprocess(
  (body, context) => {
    const form = typeof body === 'object' && body !== null && 'deliveryIds' in body ? replayByIds : replayByFilter;
    const parsed = form.safeParse(body);
    if (parsed.success) return body;
    for (const issue of parsed.error.issues) {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: issue.input });
    }
    return z.NEVER;
  },
  z.union([replayByIds, replayByFilter]),
);

export const replayDeliveriesResult = z.union([
  z.object({ replayed: z.number().int() }).describe('deliveryIds: the deliveries replayed now'),
  z
    .object({
      matched: z.number().int(),
      matchedIsLowerBound: z
        .boolean()
        .optional()
        .describe(
          'true: a payload search stopped counting at 10,000 matches or at HOOKLINE_SEARCH_BUDGET_MS, so at least `matched` match (the job still replays every one); false or absent: exactly `matched`',
        ),
    })
    .describe('dryRun: how many the filter matches; nothing changed'),
  z.object({ job }).describe('filter: the background job replaying them (GET /apps/{appId}/jobs/{jobId})'),
]);
export type ReplaySelectionResult = ResponseBody<typeof replayDeliveriesResult>;
