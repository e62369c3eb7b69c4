import { z } from 'zod';
import { cursorQuery, eventTypeName, isoDate, limitQuery, timestamp } from './common';
import { message } from './messages';

export const deliveryStates = ['pending', 'delivering', 'succeeded', 'dead', 'cancelled'] as const;

export const delivery = z.object({
  id: z.string(),
  appId: z.string(),
  messageId: z.string(),
  endpointId: z.string(),
  endpointUrl: z.string(),
  eventType: z.string(),
  state: z.enum(deliveryStates),
  attemptCount: z.number().int(),
  nextAttemptAt: timestamp.nullable(),
  lastAttemptAt: timestamp.nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastErrorClass: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const attempt = z.object({
  id: z.string(),
  deliveryId: z.string(),
  attemptNumber: z.number().int(),
  workerId: z.string(),
  startedAt: timestamp,
  durationMs: z.number(),
  statusCode: z.number().int().nullable(),
  errorClass: z.string().nullable(),
  errorMessage: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.unknown()),
  responseHeaders: z.record(z.string(), z.unknown()).nullable(),
  responseBody: z.string().nullable(),
  responseTruncated: z.boolean(),
});

export const deliveryDetail = delivery.extend({ attempts: z.array(attempt), message });

// The filter keys shared by the list query and the replay-by-filter body. Query strings carry only
// strings, so numbers are coerced.
export const deliveryFilter = z.strictObject({
  endpointId: z.string().min(1).max(200).optional(),
  eventType: eventTypeName.optional(),
  state: z.enum(deliveryStates).optional(),
  errorClass: z.string().min(1).max(100).optional(),
  statusCode: z.coerce.number().int().min(100).max(599).optional(),
  from: isoDate.optional().describe('Created at or after'),
  to: isoDate.optional().describe('Created before'),
  id: z.string().min(1).max(200).optional().describe('One delivery id'),
});

export type DeliveryFilter = z.infer<typeof deliveryFilter>;

export const listDeliveriesQuery = z.object({ ...deliveryFilter.shape, limit: limitQuery, cursor: cursorQuery });

export const replayDeliveriesBody = z.union([
  z.strictObject({ deliveryIds: z.array(z.string().min(1).max(200)).min(1).max(1000) }),
  z.strictObject({ filter: deliveryFilter, dryRun: z.boolean().optional() }),
]);

export const replayDeliveriesResult = z.union([
  z.object({ replayed: z.number().int() }),
  z.object({ matched: z.number().int() }),
]);
