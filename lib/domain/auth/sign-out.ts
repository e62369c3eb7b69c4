import { getPrisma, type PrismaClient } from '../../database/db';
import { hashToken } from './hash-token';

export async function signOut(
  token: string | undefined,
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<void> {
  if (!token) return;
  await prisma.adminSession.deleteMany({ where: { tokenHash: hashToken(token) } });
}
