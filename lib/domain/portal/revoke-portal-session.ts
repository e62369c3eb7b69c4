import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { portalSessionView } from './portal-session-view';

/** Revokes at once: every portal request looks the session up, nothing caches it. Revoking twice is fine. */
export async function revokePortalSession({ appId, sessionId }: { appId: string; sessionId: string }) {
  const prisma = getPrisma();
  await prisma.portalSession.updateMany({
    where: { id: sessionId, appId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const row = await prisma.portalSession.findFirst({ where: { id: sessionId, appId } });
  if (!row) throw notFound('Portal session', sessionId);
  return portalSessionView(row);
}
