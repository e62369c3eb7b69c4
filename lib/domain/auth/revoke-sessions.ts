import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';

/**
 * Ends sessions of one member: one (sessionId), or all of them (sign-out everywhere, or an owner
 * locking a member out). A session is deleted, not flagged: the cookie then matches no row, and the
 * very next request of that browser is a 401. Returns how many ended.
 */
export async function revokeSessions(
  { userId, sessionId }: { userId: string; sessionId?: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ revoked: number }> {
  const count = await prisma.$transaction(async (tx) => {
    const deleted = await tx.adminSession.deleteMany({
      where: { userId, ...(sessionId === undefined ? {} : { id: sessionId }) },
    });
    if (deleted.count > 0) {
      await recordAuditEvent(tx, {
        action: sessionId === undefined ? 'member.signed_out_everywhere' : 'member.session_revoked',
        resourceType: 'member',
        resourceId: userId,
        appId: null,
        after: { sessionsEnded: deleted.count, ...(sessionId === undefined ? {} : { sessionId }) },
      });
    }
    return deleted.count;
  });
  // Another member's session id is as unknown as a made-up one.
  if (sessionId !== undefined && count === 0) throw notFound('Session', sessionId);
  return { revoked: count };
}
