import type { AuditEvent as AuditEventRow } from '../../generated/prisma/client';

type Fields = Record<string, unknown> | null;

export function auditEventView(row: AuditEventRow) {
  const changes = (row.changes ?? {}) as { before?: Fields; after?: Fields };
  return {
    id: row.id,
    createdAt: row.createdAt,
    appId: row.appId,
    actor: { type: row.actorType as 'admin' | 'api_key' | 'portal' | 'system', id: row.actorId, label: row.actorLabel },
    action: row.action,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    changes: { before: changes.before ?? null, after: changes.after ?? null },
    remoteAddress: row.remoteAddress,
  };
}
