import { z } from 'zod';
import { cursorQuery, eventTypeName, isoDate, limitQuery, timestamp } from './common';

export const message = z.object({
  id: z.string(),
  appId: z.string(),
  eventType: z.string(),
  payload: z.unknown(),
  idempotencyKey: z.string().nullable(),
  createdAt: timestamp,
});

export const createMessageBody = z.strictObject({
  eventType: eventTypeName,
  payload: z
    .record(z.string(), z.unknown())
    .describe('Any JSON object; delivered as the request body (at most HOOKLINE_MAX_PAYLOAD_BYTES)'),
});

export const idempotencyKeyHeader = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const listMessagesQuery = z.object({
  eventType: eventTypeName.optional(),
  from: isoDate.optional().describe('Created at or after'),
  to: isoDate.optional().describe('Created before'),
  limit: limitQuery,
  cursor: cursorQuery,
});
