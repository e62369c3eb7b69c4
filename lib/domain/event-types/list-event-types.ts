import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import { eventTypeView } from './event-type-view';

export async function listEventTypes({
  appId,
  includeArchived,
  limit,
  cursor,
}: {
  appId: string;
  includeArchived: boolean;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = await readPrisma();
  const where: Prisma.EventTypeWhereInput = { appId, ...(includeArchived ? {} : { archived: false }) };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.eventType.findMany(query));
  return { data: page.data.map(eventTypeView), nextCursor: page.nextCursor };
}
