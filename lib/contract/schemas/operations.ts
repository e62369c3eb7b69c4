// Operational events (what Hookline tells operators), their issues and alert rules: the REST contract
// and the payload of every operational event type. The event schemas are named OpenAPI components and
// the document's `webhooks` section (lib/contract/openapi/build-openapi-document.ts); the README shows an example
// of each. Field names are snake_case in event payloads: they are built in SQL
// (hookline.emit_operational_event, migration 20261124130000_operational_events).
import { z } from 'zod';
import { endpoint } from './endpoints';
import { pageQuery, pathId, timestamp, type ResponseBody } from './common';
import {
  OPERATIONAL_EVENT_TYPES,
  type OperationalEventType,
} from '../../domain/operational-events/operational-event-types';

export { OPERATIONAL_EVENT_TYPES, type OperationalEventType };

// ---- Event payloads ------------------------------------------------------------------------------

const eventBase = {
  event_id: z.string().describe('opev_...: the operational event; the webhook-id header is the message id'),
  app_id: z.string().describe('The app the event is about'),
  app_name: z.string().optional(),
  issue_id: z.string().optional().describe('The issue this event opened, touched or resolved'),
  occurred_at: timestamp,
  summary: z.string().describe('One line for a person, e.g. "Endpoint recovered for Acme: https://acme.example/hooks"'),
  dashboard_url: z
    .string()
    .describe('The dashboard page of its issue, else its endpoint (HOOKLINE_PUBLIC_URL, else http://HOST:PORT)'),
};

const issueData = z.object({
  ...eventBase,
  endpoint_id: z.string().optional(),
  endpoint_url: z.string().optional(),
  title: z.string(),
  status: z.enum(['open', 'acknowledged', 'resolved']),
  error_class: z.string(),
  alert_rule_id: z.string().optional(),
  event_count: z.number().int(),
  affected_deliveries: z.number().int(),
  first_seen_at: timestamp,
  last_seen_at: timestamp,
  resolved_at: timestamp.optional(),
});

const endpointBase = {
  ...eventBase,
  endpoint_id: z.string(),
  endpoint_url: z.string(),
  consecutive_failures: z.number().int(),
  last_error_class: z.string().nullable(),
  circuit_state: z.enum(['closed', 'open', 'half_open']),
  failing_since: timestamp.nullable(),
  last_failure_at: timestamp.nullable(),
};

const alertData = z.object({
  ...eventBase,
  alert_rule_id: z.string(),
  kind: z.enum(['success_rate_below', 'oldest_waiting_above', 'dead_per_hour_above']),
  threshold: z.number(),
  window_minutes: z.number().int(),
  value: z.number().nullable().describe('The measured value: percent, seconds or deliveries per hour'),
  condition: z.string().describe('The rule in words, e.g. "success rate below 95 % over 15 min"'),
  description: z.string(),
});

export const operationalEventData = {
  'endpoint.disabled': z.object({ ...endpointBase, reason: z.string().nullable() }),
  'endpoint.enabled': z.object(endpointBase),
  'endpoint.circuit_opened': z.object({ ...endpointBase, circuit_open_until: timestamp.nullable() }),
  'endpoint.circuit_closed': z.object(endpointBase),
  'endpoint.failing': z.object(endpointBase),
  'endpoint.recovered': z.object({
    ...endpointBase,
    failing_since: timestamp.nullable().describe('When it was found failing (the outage that ended)'),
  }),
  'delivery.dead': z.object({
    ...eventBase,
    endpoint_id: z.string(),
    endpoint_url: z.string(),
    error_class: z.string(),
    count: z.number().int().describe('Deliveries of this endpoint and error class found dead by this pass'),
    delivery_ids: z.array(z.string()).describe('Up to 20 of them; the issue lists all'),
    last_status_code: z.number().int().nullable(),
  }),
  'alert.fired': alertData,
  'alert.resolved': alertData,
  'job.finished': z
    .object({ ...eventBase, job_id: z.string(), kind: z.string() })
    .catchall(z.unknown())
    .describe('Emitted by background jobs; their own fields (counts, times) follow'),
  'issue.reminder': issueData,
  'issue.reopened': issueData,
  'issue.resolved': issueData,
  'audit.sensitive_change': z
    .object({
      ...eventBase,
      audit_event_id: z.string().describe('aud_...: the audit log row (GET /api/v1/audit-events)'),
      action: z.string().describe('e.g. api_key.created'),
      resource_type: z.string(),
      resource_id: z.string(),
      actor_type: z.enum(['admin', 'api_key', 'portal', 'system']),
      actor_id: z.string().nullable(),
      actor_label: z.string().nullable(),
      remote_address: z.string().nullable(),
      reason: z.string().describe('Why it counts as sensitive, e.g. "An API key for every app was created"'),
    })
    .describe('A sensitive change recorded in the audit log (today: an API key for every app was created)'),
} satisfies Record<OperationalEventType, z.ZodType>;

/** The Standard Webhooks envelope an operational endpoint without a payload template receives. */
export const operationalEventEnvelopes = {} as Record<OperationalEventType, z.ZodType>;
for (const type of OPERATIONAL_EVENT_TYPES) {
  operationalEventEnvelopes[type] = z.object({ type: z.literal(type), timestamp, data: operationalEventData[type] });
}

/** Component name of an event type's envelope: endpoint.circuit_opened -> EndpointCircuitOpenedEvent. */
export function operationalEventSchemaName(type: string): string {
  return (
    type
      .split(/[._]/)
      .map((part) => part[0]!.toUpperCase() + part.slice(1))
      .join('') + 'Event'
  );
}

// ---- Operational endpoints -----------------------------------------------------------------------

export const payloadTemplate = z
  .string()
  .min(2)
  .max(10_000)
  .describe(
    'JSON with {{path}} placeholders (type, timestamp, data.<field>, and action: "trigger" or "resolve", ' +
      'dedup_key: the issue id, emoji), replaced by JSON-escaped values; the result is the whole request ' +
      'body, e.g. {"text": "{{emoji}} {{data.summary}}"} for Slack',
  );

export const operationalEndpoint = endpoint.extend({
  scopeAppId: z.string().nullable().describe('Only events of this app; null: every app (deployment-wide)'),
  payloadTemplate: z.string().nullable(),
});
export const operationalEndpointWithSecret = operationalEndpoint.extend({ secret: z.string() });
export type OperationalEndpoint = ResponseBody<typeof operationalEndpoint>;
export type OperationalEndpointWithSecret = ResponseBody<typeof operationalEndpointWithSecret>;

const eventTypesFilter = z
  .array(z.enum(OPERATIONAL_EVENT_TYPES))
  .max(20)
  .describe('Operational event types to receive; empty or omitted = all');

export const createOperationalEndpointBody = z.strictObject({
  url: z.string().min(1).max(2048).describe('http or https URL: your receiver, or a Slack/PagerDuty incoming webhook'),
  description: z.string().max(2000).optional(),
  eventTypes: eventTypesFilter.optional(),
  scopeAppId: pathId.nullable().optional(),
  payloadTemplate: payloadTemplate.nullable().optional(),
  headers: z.record(z.string().max(256), z.string().max(4096)).optional(),
});

export const updateOperationalEndpointBody = z.strictObject({
  url: z.string().min(1).max(2048).optional(),
  description: z.string().max(2000).optional(),
  eventTypes: eventTypesFilter.optional(),
  scopeAppId: pathId.nullable().optional(),
  payloadTemplate: payloadTemplate.nullable().optional(),
});

// ---- Issues --------------------------------------------------------------------------------------

export const issueStatus = z.enum(['open', 'acknowledged', 'resolved']);

export const issue = z.object({
  id: z.string(),
  appId: z.string(),
  endpointId: z.string().nullable(),
  alertRuleId: z.string().nullable(),
  errorClass: z.string().describe('The error class, or "alert" for an alert rule'),
  title: z.string(),
  status: issueStatus,
  eventCount: z.number().int().describe('Operational events that opened or touched it'),
  affectedDeliveries: z.number().int().describe('Dead deliveries counted into it'),
  reopenedCount: z.number().int(),
  firstSeenAt: timestamp,
  lastSeenAt: timestamp,
  acknowledgedAt: timestamp.nullable(),
  resolvedAt: timestamp.nullable(),
  mutedUntil: timestamp.nullable().describe('No notification about this issue before then'),
  endpointUrl: z.string().nullable().describe("The URL of the issue's endpoint, if it is about one"),
});
export type Issue = ResponseBody<typeof issue>;

export const muteIssueBody = z.object({
  minutes: z
    .number()
    .int()
    .min(1)
    .max(43_200)
    .describe('How long to send no notification about the issue: 1 minute to 30 days'),
});
export type IssueStatus = Issue['status'];

export const operationalEvent = z.object({
  id: z.string(),
  appId: z.string(),
  type: z.string(),
  endpointId: z.string().nullable(),
  issueId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: timestamp,
});
export type OperationalEventRecord = ResponseBody<typeof operationalEvent>;

export const issueDetail = issue.extend({
  deliveryIds: z.array(z.string()).describe('The most recent 100 affected deliveries'),
  events: z.array(operationalEvent).describe('The most recent 50 events of this issue'),
});
export type IssueDetail = ResponseBody<typeof issueDetail>;

export const listIssuesQuery = pageQuery.extend({
  appId: pathId.optional(),
  status: z
    .enum(['open', 'acknowledged', 'resolved', 'unresolved'])
    .optional()
    .describe('unresolved = open or acknowledged; omitted = all'),
});

export const issueCounts = z.object({
  open: z.number().int(),
  acknowledged: z.number().int(),
  resolved: z.number().int(),
});
export type IssueCounts = ResponseBody<typeof issueCounts>;

export const listOperationalEventsQuery = pageQuery.extend({ appId: pathId.optional() });

// ---- Alert rules ---------------------------------------------------------------------------------

export const alertRuleKind = z
  .enum(['success_rate_below', 'oldest_waiting_above', 'dead_per_hour_above'])
  .describe(
    'success_rate_below: threshold in percent over windowMinutes; oldest_waiting_above: threshold in seconds; ' +
      'dead_per_hour_above: threshold in dead deliveries over the last hour',
  );

export const alertRule = z.object({
  id: z.string(),
  appId: z.string(),
  kind: alertRuleKind,
  threshold: z.number(),
  windowMinutes: z.number().int(),
  description: z.string(),
  enabled: z.boolean(),
  firing: z.boolean(),
  lastValue: z.number().nullable(),
  lastEvaluatedAt: timestamp.nullable(),
  firedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type AlertRule = ResponseBody<typeof alertRule>;
export type AlertRuleKind = AlertRule['kind'];

export const createAlertRuleBody = z
  .strictObject({
    kind: alertRuleKind,
    threshold: z.number().min(0).max(1_000_000_000),
    windowMinutes: z.number().int().min(1).max(1440).optional().describe('success_rate_below only; default 15'),
    description: z.string().max(2000).optional(),
    enabled: z.boolean().optional(),
  })
  .refine((rule) => rule.kind !== 'success_rate_below' || rule.threshold <= 100, {
    path: ['threshold'],
    message: 'a success rate is a percentage: 0 to 100',
  });

export const updateAlertRuleBody = z.strictObject({
  threshold: z.number().min(0).max(1_000_000_000).optional(),
  windowMinutes: z.number().int().min(1).max(1440).optional(),
  description: z.string().max(2000).optional(),
  enabled: z.boolean().optional(),
});
