import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError, invalid, notFound } from '../errors';
import { matchTotp } from './totp';

/** Turns the second factor off; a current code is needed, so a session left open cannot do it alone. */
export async function disableTotp(
  { userId, code }: { userId: string; code: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ totpEnabled: false }> {
  const user = await prisma.adminUser.findUnique({ where: { id: userId } });
  if (!user) throw notFound('Member', userId);
  if (!user.totpEnabledAt || !user.totpSecret) throw new DomainError('conflict', 'No second factor is set up');
  const lastStep = user.totpLastStep === null ? null : Number(user.totpLastStep);
  if (matchTotp({ secret: user.totpSecret, code, lastStep }) === null) {
    throw invalid('code', 'The code is wrong, expired or used already');
  }
  await prisma.adminUser.update({
    where: { id: userId },
    data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
  });
  return { totpEnabled: false };
}
