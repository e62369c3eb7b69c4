import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';
import { portalSessionView } from './portal-session-view';

/** Revokes at once: every portal request looks the session up, nothing caches it. Revoking twice is fine. */
export async function revokePortalSession({ appId, sessionId }: { appId: string; sessionId: string }) {
  const prisma = getPrisma();
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.portalSession.updateMany({
      where: { id: sessionId, appId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    // Revoking twice changes nothing the second time, and records nothing.
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: 'portal_session.revoked',
        resourceType: 'portal_session',
        resourceId: sessionId,
        appId,
        before: { revoked: false },
        after: { revoked: true },
      });
    }
  });
  const row = await prisma.portalSession.findFirst({ where: { id: sessionId, appId } });
  if (!row) throw notFound('Portal session', sessionId);
  return portalSessionView(row);
}
