import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import type { Prisma } from '../../generated/prisma/client';
import { operationalEventView } from './operational-event-view';
import { appScopeWhere, type AppScope } from '../apps/app-scope';

/**
 * The operational event log, newest first (what was sent to the operational endpoints, and why).
 * audit.sensitive_change events copy an audit log entry (who, from which address, why), so they are
 * listed only with `withAuditChanges`, for a caller that may read the audit log.
 */
export async function listOperationalEvents({
  appId,
  appIds,
  withAuditChanges,
  limit,
  cursor,
}: AppScope & {
  withAuditChanges: boolean;
  limit: number;
  cursor?: string;
}) {
  const prisma = getPrisma();
  const scope = appScopeWhere({ appId, appIds });
  const where: Prisma.OperationalEventWhereInput = withAuditChanges
    ? scope
    : { AND: [scope, { type: { not: 'audit.sensitive_change' } }] };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.operationalEvent.findMany(query));
  return {
    data: page.data.map(operationalEventView),
    nextCursor: page.nextCursor,
  };
}
