import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import { eventTypeView } from './event-type-view';

export async function listEventTypes({
  appId,
  includeArchived,
  name,
  limit,
  cursor,
}: {
  appId: string;
  includeArchived: boolean;
  /** Only names containing this text, in any case. */
  name?: string;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = await readPrisma();
  // A substring matches anywhere in a name, so no index finds it: it is checked on the app's own event
  // types only, a catalog of hundreds or a few thousand.
  const where: Prisma.EventTypeWhereInput = {
    appId,
    ...(includeArchived ? {} : { archived: false }),
    // Prisma passes `contains` to ILIKE as it is: "_" would match any character, "%" any run of them.
    ...(name === undefined ? {} : { name: { contains: name.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' } }),
  };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.eventType.findMany(query));
  return { data: page.data.map(eventTypeView), nextCursor: page.nextCursor };
}
