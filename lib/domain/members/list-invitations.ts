import { getPrisma, type PrismaClient } from '../../database/db';
import { invitationView } from './invitation-view';

/** Invitations still open, newest first (accepted ones are members now; revoked and expired drop off). */
export async function listInvitations({ prisma = getPrisma() }: { prisma?: PrismaClient } = {}) {
  const rows = await prisma.invitation.findMany({
    where: { acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 1000,
  });
  return { data: rows.map((row) => invitationView(row)) };
}
