// The operational event types (migrations 20261124130000_operational_events and
// 20261126120000_alert_notifications and 20261127120000_audit_events seed the same names as
// event types of the operations app). One list for the API contract (lib/contract/schemas/operations.ts) and
// the dashboard (lib/client/queries/operations.ts); no zod here, so the browser bundle can import it.
export const OPERATIONAL_EVENT_TYPES = [
  'endpoint.disabled',
  'endpoint.enabled',
  'endpoint.circuit_opened',
  'endpoint.circuit_closed',
  'endpoint.failing',
  'endpoint.recovered',
  'delivery.dead',
  'alert.fired',
  'alert.resolved',
  'job.finished',
  'issue.reminder',
  'issue.reopened',
  'issue.resolved',
  'audit.sensitive_change',
] as const;
export type OperationalEventType = (typeof OPERATIONAL_EVENT_TYPES)[number];
