import { getPrisma, type PrismaClient } from '../../database/db';
import { getApiSettings } from '../../runtime/api-settings';

/** A member's live sessions, newest first; `current` marks the one asking. Ended ones are not listed. */
export async function listSessions(
  { userId, currentSessionId = null }: { userId: string; currentSessionId?: string | null },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  const now = Date.now();
  const rows = await prisma.adminSession.findMany({
    where: {
      userId,
      expiresAt: { gt: new Date(now) },
      lastSeenAt: { gt: new Date(now - getApiSettings().sessionIdleTimeoutMs) },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    // A member signs in from a few browsers; 100 is far more than a real list and bounds a scripted one.
    take: 100,
  });
  return {
    data: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      expiresAt: row.expiresAt,
      userAgent: row.userAgent,
      ip: row.ip,
      current: row.id === currentSessionId,
    })),
  };
}
