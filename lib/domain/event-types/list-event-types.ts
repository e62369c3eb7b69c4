import { findPage } from '../cursor';
import { containsText } from '../contains-text';
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
  const where: Prisma.EventTypeWhereInput = {
    appId,
    ...(includeArchived ? {} : { archived: false }),
    ...(name === undefined ? {} : { name: containsText(name) }),
  };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.eventType.findMany(query));
  return { data: page.data.map(eventTypeView), nextCursor: page.nextCursor };
}
