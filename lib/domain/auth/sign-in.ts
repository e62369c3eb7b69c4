import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError } from '../errors';
import { hashPassword, needsRehash, verifyPassword } from './password-hash';
import { openSession } from './open-session';
import { matchTotp } from './totp';

// Compared against when the email is unknown or its member has no password (made by single sign-on),
// so either costs as long as a wrong password, gets the same answer, and neither the answer nor its
// time reveals which member emails exist or which members sign in by SSO only.
let decoyHash: Promise<string> | undefined;

export interface SignInInput {
  email: string;
  password: string;
  /** The authenticator's 6-digit code, for a member with a second factor. */
  code?: string;
  ttlHours: number;
  userAgent?: string | null;
  ip?: string | null;
}

/**
 * Checks the credentials and opens a session; returns the token for the cookie. A member with TOTP
 * gets second_factor_required until the code comes along with the password (asked only once the
 * password is right, so the question reveals nothing to someone who does not know it).
 */
export async function signIn(
  { email, password, code, ttlHours, userAgent = null, ip = null }: SignInInput,
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const user = await prisma.adminUser.findUnique({ where: { email: email.trim().toLowerCase() } });
  decoyHash ??= hashPassword('decoy password');
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user?.passwordHash || !valid) throw new DomainError('invalid_credentials', 'The email or the password is wrong');
  // A hash from before argon2id (or with weaker parameters) is replaced now that the password is known;
  // the WHERE keeps a password changed meanwhile from being overwritten.
  if (needsRehash(user.passwordHash)) {
    await prisma.adminUser.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: { passwordHash: await hashPassword(password) },
    });
  }
  if (user.totpEnabledAt && user.totpSecret) {
    if (!code) {
      throw new DomainError('second_factor_required', 'Enter the 6-digit code from your authenticator app');
    }
    const lastStep = user.totpLastStep === null ? null : Number(user.totpLastStep);
    const step = matchTotp({ secret: user.totpSecret, code, lastStep });
    // The WHERE repeats the check, so two sign-ins racing with one code open one session.
    const used =
      step !== null &&
      (
        await prisma.adminUser.updateMany({
          where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
          data: { totpLastStep: step },
        })
      ).count === 1;
    if (!used) throw new DomainError('invalid_credentials', 'The code is wrong, expired or used already');
  }
  return openSession({ userId: user.id, ttlHours, userAgent, ip }, { prisma });
}
