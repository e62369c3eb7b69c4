import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { operationalEventView } from './operational-event-view';

/** The operational event log, newest first (what was sent to the operational endpoints, and why). */
export async function listOperationalEvents({
  appId,
  limit,
  cursor,
}: {
  appId?: string;
  limit: number;
  cursor?: string;
}) {
  const prisma = getPrisma();
  const page = await findPage({ where: appId ? { appId } : {}, cursor, limit }, (query) =>
    prisma.operationalEvent.findMany(query),
  );
  return {
    data: page.data.map(operationalEventView),
    nextCursor: page.nextCursor,
  };
}
