import { findPage } from '../api/cursor';
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { messageView } from './message-view';

export async function listMessages({
  appId,
  eventType,
  from,
  to,
  limit,
  cursor,
}: {
  appId: string;
  eventType?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = getPrisma();
  const where: Prisma.MessageWhereInput = { appId, eventType, createdAt: { gte: from, lt: to } };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.message.findMany(query));
  return { data: page.data.map(messageView), nextCursor: page.nextCursor };
}
