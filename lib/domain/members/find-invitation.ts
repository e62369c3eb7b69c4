import { getPrisma, type PrismaClient } from '../../database/db';
import { hashToken } from '../auth/hash-token';
import { invitationView } from './member-view';

/** The open invitation a link's token names, or null (unknown, expired, revoked or accepted). */
export async function findInvitation(token: string, { prisma = getPrisma() }: { prisma?: PrismaClient } = {}) {
  if (!token || token.length > 200) return null;
  const row = await prisma.invitation.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!row) return null;
  const view = invitationView(row);
  return view.state === 'pending' ? view : null;
}
