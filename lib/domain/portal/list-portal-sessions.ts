import { findPage } from '../cursor';
import { getPrisma } from '../../database/db';
import { requireApp } from '../apps/require-app';
import { portalSessionView } from './portal-session-view';

/** One app's portal sessions, newest first: active, expired and revoked alike. */
export async function listPortalSessions({ appId, limit, cursor }: { appId: string; limit: number; cursor?: string }) {
  const prisma = getPrisma();
  await requireApp(appId);
  const page = await findPage({ where: { appId }, cursor, limit }, (query) => prisma.portalSession.findMany(query));
  return { data: page.data.map(portalSessionView), nextCursor: page.nextCursor };
}
