// The audit log (issue 24): who changed what, when and from where (migration 20261127120000_audit_events).
import { z } from 'zod';
import { pageQuery, pathId, timestamp, type ResponseBody } from './common';

const filterText = z.string().min(1).max(200);

export const listAuditEventsQuery = pageQuery.extend({
  appId: pathId.optional().describe('Only changes to this app and what it holds'),
  action: filterText
    .optional()
    .describe('e.g. endpoint.secret_rotated; a prefix ending in "." (endpoint.) matches a family'),
  resourceType: filterText.optional().describe('app, endpoint, event_type, job, delivery, message, api_key, ...'),
  resourceId: filterText.optional(),
  actorId: filterText.optional().describe("The user's, API key's or portal session's id"),
});
export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuery>;

const fields = z.record(z.string(), z.unknown()).nullable();

export const auditEvent = z.object({
  id: z.string().describe('aud_...'),
  createdAt: timestamp,
  appId: z
    .string()
    .nullable()
    .describe('null: a deployment-wide resource (a key for every app, an operational endpoint)'),
  actor: z.object({
    type: z.enum(['admin', 'api_key', 'portal', 'system']),
    id: z.string().nullable(),
    label: z.string().nullable().describe("The admin's email; null for keys (their id says which)"),
  }),
  action: z.string().describe('e.g. endpoint.created, endpoint.secret_rotated, replay.started, api_key.created'),
  resourceType: z.string(),
  resourceId: z.string(),
  changes: z
    .object({ before: fields, after: fields })
    .describe('The fields that changed, before and after (all of them on a creation or deletion); never a secret'),
  remoteAddress: z.string().nullable(),
});
export type AuditEvent = ResponseBody<typeof auditEvent>;
