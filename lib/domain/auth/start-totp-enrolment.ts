import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError, notFound } from '../errors';
import { newTotpSecret, totpUri } from './totp';

/**
 * Step 1 of enrolment: a new secret, kept but not yet required. Until the member confirms a code from
 * it (confirmTotp), sign-in stays password-only, so a secret that never reached a phone locks no one out.
 */
export async function startTotpEnrolment(
  { userId }: { userId: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ secret: string; uri: string }> {
  const user = await prisma.adminUser.findUnique({ where: { id: userId } });
  if (!user) throw notFound('Member', userId);
  if (user.totpEnabledAt) throw new DomainError('conflict', 'A second factor is set up already; remove it first');
  const secret = newTotpSecret();
  await prisma.adminUser.update({ where: { id: userId }, data: { totpSecret: secret, totpLastStep: null } });
  return { secret, uri: totpUri({ secret, email: user.email }) };
}
