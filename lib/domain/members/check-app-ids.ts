import type { PrismaClient } from '../../generated/prisma/client';
import { invalid } from '../errors';

/** The apps a role is held to must exist when it is given (a typo would otherwise lock a member out). */
export async function checkAppIds(prisma: Pick<PrismaClient, 'app'>, appIds: string[]): Promise<string[]> {
  const unique = [...new Set(appIds)];
  if (unique.length === 0) return unique;
  const found = await prisma.app.findMany({ where: { id: { in: unique } }, select: { id: true } });
  const known = new Set(found.map((row) => row.id));
  const index = unique.findIndex((id) => !known.has(id));
  if (index !== -1)
    throw invalid(`appIds.${appIds.indexOf(unique[index]!)}`, `app ${JSON.stringify(unique[index])} does not exist`);
  return unique;
}

/** An owner manages members, which concern every app: it cannot be held to some. */
export const ownerEverywhere = () =>
  invalid('appIds', 'an owner is never held to apps; choose another role or every app');
