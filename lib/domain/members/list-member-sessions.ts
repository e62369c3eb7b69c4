import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';
import { listSessions } from '../auth/list-sessions';

/** An owner's view of another member's live sessions. */
export async function listMemberSessions(
  { memberId }: { memberId: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  const member = await prisma.adminUser.findUnique({ where: { id: memberId }, select: { id: true } });
  if (!member) throw notFound('Member', memberId);
  return listSessions({ userId: memberId }, { prisma });
}
