import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';
import { invitationView } from './invitation-view';

/** The link stops working at once. Revoking twice, or after acceptance, changes nothing. */
export async function revokeInvitation(
  { invitationId }: { invitationId: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({
      where: { id: invitationId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: 'invitation.revoked',
        resourceType: 'invitation',
        resourceId: invitationId,
        appId: null,
      });
    }
  });
  const row = await prisma.invitation.findUnique({ where: { id: invitationId } });
  if (!row) throw notFound('Invitation', invitationId);
  return invitationView(row);
}
