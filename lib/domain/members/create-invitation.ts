import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { getApiSettings } from '../../runtime/api-settings';
import { DomainError } from '../errors';
import { hashToken, randomToken } from '../auth/hash-token';
import type { Role } from '../auth/roles';
import { checkAppIds, ownerEverywhere } from './check-app-ids';
import { invitationView } from './invitation-view';

/**
 * An invitation by link. The token is returned only here (the database keeps its sha256, as for API
 * keys); it is good until HOOKLINE_INVITATION_TTL passes, and once.
 */
export async function createInvitation(
  { email, role, appIds = [], invitedBy }: { email: string; role: Role; appIds?: string[]; invitedBy: string | null },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  const normalised = email.trim().toLowerCase();
  const existing = await prisma.adminUser.findUnique({ where: { email: normalised }, select: { id: true } });
  if (existing) throw new DomainError('conflict', `${normalised} is a member already`);
  const checked = await checkAppIds(prisma, appIds);
  if (role === 'owner' && checked.length > 0) throw ownerEverywhere();
  const token = randomToken();
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.invitation.create({
      data: {
        email: normalised,
        role,
        appIds: checked,
        tokenHash: hashToken(token),
        invitedBy,
        expiresAt: new Date(Date.now() + getApiSettings().invitationTtlMs),
      },
    });
    await recordAuditEvent(tx, {
      action: 'invitation.created',
      resourceType: 'invitation',
      resourceId: created.id,
      appId: null,
      after: { email: created.email, role: created.role, appIds: created.appIds, expiresAt: created.expiresAt },
    });
    return created;
  });
  return { invitation: invitationView(row), token };
}
