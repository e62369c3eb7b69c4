import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_CHARACTERS,
  IDEMPOTENCY_KEY_CHARACTERS_RULE,
  IDEMPOTENCY_KEY_LENGTH_RULE,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from '../../domain/messages/idempotency-key-rule';
import { cursorQuery, eventTypeName, isoDate, limitQuery, timestamp, type ResponseBody } from './common';
import { ERROR_CLASSES } from '../../domain/deliveries/error-classes';
import { payloadSearchQuery } from './payload-search';

export const message = z.object({
  id: z.string(),
  appId: z.string(),
  eventType: z.string(),
  payload: z.unknown(),
  idempotencyKey: z.string().nullable(),
  createdAt: timestamp,
});
export type Message = ResponseBody<typeof message>;

export const createMessageBody = z.strictObject({
  eventType: eventTypeName,
  payload: z
    .record(z.string(), z.unknown(), { error: (issue) => `must be a JSON object, got ${jsonTypeOf(issue.input)}` })
    .describe('Any JSON object; delivered as the request body (at most HOOKLINE_MAX_PAYLOAD_BYTES)'),
});

// The words hookline.send uses for its payload's type (jsonb_typeof), so both ways in say the same.
function jsonTypeOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export const idempotencyKeyHeader = z
  .string()
  .min(1, IDEMPOTENCY_KEY_LENGTH_RULE)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_LENGTH_RULE)
  .regex(IDEMPOTENCY_KEY_CHARACTERS, IDEMPOTENCY_KEY_CHARACTERS_RULE);

// The W3C Trace Context headers (https://www.w3.org/TR/trace-context/). Documented, not enforced: a
// malformed traceparent is ignored, as OpenTelemetry's propagators ignore one, never answered 4xx
// (lib/domain/messages/trace-context.ts reads them).
export const traceparentHeader = z
  .string()
  .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.*)?$/)
  .meta({ example: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
export const tracestateHeader = z.string().max(512);

export const messageOutcome = z
  .object({
    deliveries: z.number().int(),
    waiting: z.number().int(),
    retrying: z.number().int(),
    delivering: z.number().int(),
    succeeded: z.number().int(),
    dead: z.number().int(),
    cancelled: z.number().int(),
  })
  .describe("The message's deliveries counted by state");

export const messageWithOutcome = message.extend({ outcome: messageOutcome });
export type MessageWithOutcome = ResponseBody<typeof messageWithOutcome>;
export type MessageOutcome = MessageWithOutcome['outcome'];

export const listMessagesQuery = z.object({
  eventType: eventTypeName.optional().describe('Messages of this event type (a search: see searchedBackTo)'),
  id: z.string().min(1).max(200).optional().describe('One message id (the webhook-id header receivers saw)'),
  idempotencyKey: idempotencyKeyHeader.optional().describe('The idempotency key it was sent with'),
  statusCode: z.coerce
    .number()
    .int()
    .min(100)
    .max(599)
    .optional()
    .describe('Messages with a delivery whose latest attempt answered this status (a search: see searchedBackTo)'),
  errorClass: z
    .enum(ERROR_CLASSES)
    .optional()
    .describe('Messages with a delivery whose latest attempt failed so (a search: see searchedBackTo)'),
  minAttempts: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe('Messages with a delivery tried this often (a search: see searchedBackTo)'),
  ...payloadSearchQuery,
  from: isoDate
    .optional()
    .describe(
      'Written at or after: the time its id begins with, when its producer wrote it (createdAt is when its transaction began)',
    ),
  to: isoDate.optional().describe('Written before (as from)'),
  limit: limitQuery,
  cursor: cursorQuery,
});

export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;
