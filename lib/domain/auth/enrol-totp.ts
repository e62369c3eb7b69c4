import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError, invalid, notFound } from '../errors';
import { matchTotp, newTotpSecret, totpUri } from './totp';

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
