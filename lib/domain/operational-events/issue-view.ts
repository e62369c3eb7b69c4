import type { Issue } from '../../generated/prisma/client';

export function issueView(row: Issue) {
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
  };
}
