import { getPrisma, type PrismaClient } from '../../database/db';
import { hashPassword } from './password-hash';

/**
 * Creates the first owner, or sets its password when one is given (npm start passes
 * HOOKLINE_ADMIN_PASSWORD, so changing the variable and restarting resets the password).
 */
export async function ensureAdminUser(
  { email, password }: { email: string; password: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ id: string; created: boolean }> {
  const normalisedEmail = email.trim().toLowerCase();
  const passwordHash = await hashPassword(password);
  const existing = await prisma.adminUser.findUnique({ where: { email: normalisedEmail } });
  if (existing) {
    await prisma.adminUser.update({ where: { id: existing.id }, data: { passwordHash } });
    return { id: existing.id, created: false };
  }
  const user = await prisma.adminUser.upsert({
    where: { email: normalisedEmail },
    // The member npm start creates is an owner: someone must be able to invite the others.
    create: { email: normalisedEmail, passwordHash, role: 'owner' },
    update: { passwordHash },
  });
  return { id: user.id, created: true };
}
