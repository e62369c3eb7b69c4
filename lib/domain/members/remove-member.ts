import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';
import { keepAnOwner } from './keep-an-owner';
import { memberView } from './member-view';

/**
 * Removes a member: its sessions go with it (ON DELETE CASCADE), so it is signed out at once; the API
 * keys it created stay (created_by becomes null), since integrations may depend on them.
 */
export async function removeMember(
  { memberId }: { memberId: string },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  return prisma.$transaction(async (tx) => {
    const current = await tx.adminUser.findUnique({ where: { id: memberId } });
    if (!current) throw notFound('Member', memberId);
    if (current.role === 'owner') await keepAnOwner(tx, memberId);
    await tx.adminUser.delete({ where: { id: memberId } });
    await recordAuditEvent(tx, {
      action: 'member.removed',
      resourceType: 'member',
      resourceId: memberId,
      appId: null,
      before: memberView(current),
    });
    return memberView(current);
  });
}
