import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';

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
    data: page.data.map((event) => ({
      id: event.id,
      appId: event.appId,
      type: event.type,
      endpointId: event.endpointId,
      issueId: event.issueId,
      data: event.data as Record<string, unknown>,
      createdAt: event.createdAt,
    })),
    nextCursor: page.nextCursor,
  };
}
