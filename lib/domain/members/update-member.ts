import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma, type PrismaClient } from '../../database/db';
import { notFound } from '../errors';
import type { Role } from '../auth/roles';
import { checkAppIds, ownerEverywhere } from './check-app-ids';
import { keepAnOwner } from './keep-an-owner';
import { memberView } from './member-view';

/** Changes a member's role and/or the apps it is held to. The last owner cannot stop being one. */
export async function updateMember(
  { memberId, role, appIds }: { memberId: string; role?: Role; appIds?: string[] },
  { prisma = getPrisma() }: { prisma?: PrismaClient } = {},
) {
  return prisma.$transaction(async (tx) => {
    const current = await tx.adminUser.findUnique({ where: { id: memberId } });
    if (!current) throw notFound('Member', memberId);
    if (current.role === 'owner' && role !== undefined && role !== 'owner') await keepAnOwner(tx, memberId);
    const checked = appIds === undefined ? undefined : await checkAppIds(tx, appIds);
    if ((role ?? current.role) === 'owner' && (checked ?? current.appIds).length > 0) throw ownerEverywhere();
    const row = await tx.adminUser.update({
      where: { id: memberId },
      data: { ...(role === undefined ? {} : { role }), ...(checked === undefined ? {} : { appIds: checked }) },
    });
    await recordAuditEvent(tx, {
      action: 'member.updated',
      resourceType: 'member',
      resourceId: memberId,
      appId: null,
      before: memberView(current),
      after: memberView(row),
      // Owners manage members and can lock everyone else out: the operators hear of a new one at once.
      sensitive: row.role === 'owner' && current.role !== 'owner' ? `${row.email} was made an owner` : undefined,
    });
    return memberView(row);
  });
}
