import type { Prisma } from '../../generated/prisma/client';
import { DomainError } from '../errors';

/**
 * Refuses a change that leaves no owner. Called inside the change's transaction; the owners' rows are
 * locked first, so two owners demoting each other at once cannot both pass the check.
 */
export async function keepAnOwner(tx: Prisma.TransactionClient, losing: string): Promise<void> {
  const owners = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM hookline.admin_users WHERE role = 'owner' ORDER BY id FOR UPDATE`;
  if (owners.every((owner) => owner.id === losing)) {
    throw new DomainError('last_owner', 'This is the only owner; make another member owner first');
  }
}
