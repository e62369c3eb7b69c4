import { getPrisma, type PrismaClient } from '../../database/db';
import { hashToken } from './hash-token';

export interface AdminSessionInfo {
  userId: string;
  email: string;
}

/** The signed-in admin for a session cookie value, or null when absent, unknown or expired. */
export async function getAdminSession(
  token: string | undefined,
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<AdminSessionInfo | null> {
  if (!token || token.length > 200) return null;
  const session = await prisma.adminSession.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { user: { select: { id: true, email: true } } },
  });
  if (!session || session.expiresAt.getTime() <= Date.now()) return null;
  return { userId: session.user.id, email: session.user.email };
}
