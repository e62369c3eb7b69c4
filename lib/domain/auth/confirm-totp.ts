import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError, invalid, notFound } from '../errors';
import { matchTotp } from './totp';

/** Step 2: the code proves the authenticator has the secret; from now on sign-in asks for one. */
export async function confirmTotp(
  { userId, code }: { userId: string; code: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ totpEnabled: true }> {
  const user = await prisma.adminUser.findUnique({ where: { id: userId } });
  if (!user) throw notFound('Member', userId);
  if (user.totpEnabledAt) throw new DomainError('conflict', 'The second factor is on already');
  if (!user.totpSecret) throw new DomainError('conflict', 'Start the set-up first');
  const step = matchTotp({ secret: user.totpSecret, code });
  if (step === null)
    throw invalid('code', 'The code does not match; check the time on your device and try the next one');
  await prisma.adminUser.update({ where: { id: userId }, data: { totpEnabledAt: new Date(), totpLastStep: step } });
  return { totpEnabled: true };
}
