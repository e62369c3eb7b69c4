import type { Issue } from '../../generated/prisma/client';

/** endpointUrl: the URL of the issue's endpoint, read by the caller (null: none, or deleted). */
export function issueView(row: Issue, endpointUrl: string | null = null) {
  return {
    id: row.id,
    appId: row.appId,
    endpointId: row.endpointId,
    alertRuleId: row.alertRuleId,
    errorClass: row.errorClass,
    title: row.title,
    status: row.status as 'open' | 'acknowledged' | 'resolved',
    eventCount: row.eventCount,
    affectedDeliveries: row.affectedDeliveries,
    reopenedCount: row.reopenedCount,
    firstSeenAt: row.firstSeenAt,
    lastSeenAt: row.lastSeenAt,
    acknowledgedAt: row.acknowledgedAt,
    resolvedAt: row.resolvedAt,
    mutedUntil: row.mutedUntil,
    endpointUrl,
  };
}
