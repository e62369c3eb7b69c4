import type { Endpoint } from '../../generated/prisma/client';

/** What the audit log compares of an endpoint: its settings, not its health (which the worker moves). */
export function endpointAuditFields(row: Endpoint) {
  return {
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    maxConcurrency: row.maxConcurrency,
    rateLimitPerSecond: row.rateLimitPerSecond,
    headers: row.headers,
    retryScheduleMs: row.retryScheduleMs,
    timeoutMs: row.timeoutMs,
  };
}
