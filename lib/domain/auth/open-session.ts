import { getPrisma, type PrismaClient } from '../../database/db';
import { hashToken, randomToken } from './hash-token';

/** A new session for a member (after sign-in or accepting an invitation); the token is for the cookie. */
export async function openSession(
  {
    userId,
    ttlHours,
    userAgent,
    ip,
  }: { userId: string; ttlHours: number; userAgent: string | null; ip: string | null },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  await prisma.adminSession.create({
    data: { userId, tokenHash: hashToken(token), expiresAt, userAgent: userAgent?.slice(0, 300) ?? null, ip },
  });
  // Expired sessions of this member are removed here rather than by a background job.
  await prisma.adminSession.deleteMany({ where: { userId, expiresAt: { lt: new Date() } } });
  return { token, expiresAt };
}
