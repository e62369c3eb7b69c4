import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError } from '../errors';
import { hashToken, randomToken } from './hash-token';
import { hashPassword, verifyPassword } from './password-hash';

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password and
// response time does not reveal which admin emails exist.
let decoyHash: Promise<string> | undefined;

/** Checks the credentials and opens a session; returns the token for the cookie. */
export async function signIn(
  { email, password, ttlHours }: { email: string; password: string; ttlHours: number },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const user = await prisma.adminUser.findUnique({ where: { email: email.trim().toLowerCase() } });
  decoyHash ??= hashPassword('decoy password');
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !valid) throw new DomainError('invalid_credentials', 'The email or the password is wrong');
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  await prisma.adminSession.create({ data: { userId: user.id, tokenHash: hashToken(token), expiresAt } });
  // Expired sessions of this user are removed here rather than by a background job.
  await prisma.adminSession.deleteMany({ where: { userId: user.id, expiresAt: { lt: new Date() } } });
  return { token, expiresAt };
}
