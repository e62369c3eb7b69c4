import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { DomainError } from '../errors';
import { hashToken } from '../auth/hash-token';
import { hashPassword } from '../auth/password-hash';

const INVALID = 'This invitation link is unknown, expired, revoked or used already; ask for a new one';

/**
 * Turns an open invitation into a member with the password chosen now. The invitation is claimed by
 * one guarded UPDATE (still open, not expired), so a link used twice at once makes one member.
 */
export async function acceptInvitation(
  { token, password }: { token: string; password: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
): Promise<{ userId: string; email: string }> {
  if (!token || token.length > 200) throw new DomainError('invitation_invalid', INVALID);
  // Hashed before the transaction: argon2id takes ~60 ms, no reason to hold row locks through it.
  const passwordHash = await hashPassword(password);
  return prisma.$transaction(async (tx) => {
    const claimed = await tx.invitation.updateManyAndReturn({
      where: { tokenHash: hashToken(token), acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { acceptedAt: new Date() },
    });
    const invitation = claimed[0];
    if (!invitation) throw new DomainError('invitation_invalid', INVALID);
    const taken = await tx.adminUser.findUnique({ where: { email: invitation.email }, select: { id: true } });
    if (taken) throw new DomainError('conflict', `${invitation.email} is a member already; sign in instead`);
    const user = await tx.adminUser.create({
      data: { email: invitation.email, passwordHash, role: invitation.role, appIds: invitation.appIds },
    });
    await recordAuditEvent(tx, {
      action: 'member.joined',
      resourceType: 'member',
      resourceId: user.id,
      appId: null,
      after: { email: user.email, role: user.role, appIds: user.appIds, invitationId: invitation.id },
      sensitive: user.role === 'owner' ? `${user.email} joined as an owner` : undefined,
    });
    return { userId: user.id, email: user.email };
  });
}
