import { findPage } from '../cursor';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import type { ListAuditEventsQuery } from '../../contract/schemas/audit-events';
import { auditEventView } from './audit-event-view';
import { appScopeWhere, type AppScope } from '../apps/app-scope';

/** The audit log, newest first, cursor-paged on (created_at, id) like every other list. */
export async function listAuditEvents({
  limit,
  cursor,
  appId,
  appIds,
  action,
  resourceType,
  resourceId,
  actorId,
}: ListAuditEventsQuery & AppScope) {
  const where: Prisma.AuditEventWhereInput = {
    ...appScopeWhere({ appId, appIds }),
    // "endpoint." lists every change to endpoints; a whole name lists that action only.
    ...(action ? { action: action.endsWith('.') ? { startsWith: action } : action } : {}),
    ...(resourceType ? { resourceType } : {}),
    ...(resourceId ? { resourceId } : {}),
    ...(actorId ? { actorId } : {}),
  };
  const prisma = await readPrisma();
  const page = await findPage({ where, cursor, limit }, (query) => prisma.auditEvent.findMany(query));
  return { data: page.data.map(auditEventView), nextCursor: page.nextCursor };
}
