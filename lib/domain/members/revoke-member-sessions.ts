import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';
import { revokeSessions } from '../auth/revoke-sessions';

/** Signs a member out everywhere (a lost laptop); it can sign in again with its password. */
export async function revokeMemberSessions(
  { memberId }: { memberId: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  const member = await prisma.adminUser.findUnique({ where: { id: memberId }, select: { id: true } });
  if (!member) throw notFound('Member', memberId);
  return revokeSessions({ userId: memberId }, { prisma });
}
