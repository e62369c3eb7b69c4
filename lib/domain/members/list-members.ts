import { getPrisma, type PrismaClient } from '../../database/db';
import { memberView } from './member-view';

/** Every member, oldest first (the first is the owner npm start created). A team is tens of people. */
export async function listMembers({ prisma = getPrisma() }: { prisma?: PrismaClient } = {}) {
  const rows = await prisma.adminUser.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 1000 });
  return { data: rows.map(memberView) };
}
