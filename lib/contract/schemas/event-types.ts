import { z } from 'zod';
import { eventTypeName, timestamp, type ResponseBody } from './common';

const jsonSchemaObject = z.record(z.string(), z.unknown()).describe('A JSON Schema describing the payload');

export const eventType = z.object({
  id: z.string(),
  appId: z.string(),
  name: z.string(),
  description: z.string(),
  schema: jsonSchemaObject.nullable(),
  archived: z.boolean(),
  example: z
    .unknown()
    .describe('An example payload derived from the schema (its `examples` keyword wins); null without a schema'),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type EventType = ResponseBody<typeof eventType>;

export const createEventTypeBody = z.strictObject({
  name: eventTypeName,
  description: z.string().max(2000).optional(),
  schema: jsonSchemaObject.nullable().optional(),
  archived: z.boolean().optional(),
});

export const updateEventTypeBody = z.strictObject({
  description: z.string().max(2000).optional(),
  schema: jsonSchemaObject.nullable().optional(),
  archived: z.boolean().optional(),
});

export const listEventTypesQuery = z.object({
  includeArchived: z.enum(['true', 'false']).optional().describe('Archived event types are listed too (default true)'),
  name: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('Only event types whose name contains this text, in any case (a picker finds one among thousands)'),
});
