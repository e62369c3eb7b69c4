import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { operationalEventView } from './operational-event-view';
import { appScopeWhere, type AppScope } from '../apps/app-scope';

/** The operational event log, newest first (what was sent to the operational endpoints, and why). */
export async function listOperationalEvents({
  appId,
  appIds,
  limit,
  cursor,
}: AppScope & {
  limit: number;
  cursor?: string;
}) {
  const prisma = getPrisma();
  const page = await findPage({ where: appScopeWhere({ appId, appIds }), cursor, limit }, (query) =>
    prisma.operationalEvent.findMany(query),
  );
  return {
    data: page.data.map(operationalEventView),
    nextCursor: page.nextCursor,
  };
}
