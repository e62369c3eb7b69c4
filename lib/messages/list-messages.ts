import { pageArgs, toPage } from '../api/cursor';
import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
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
  const rows = await getPrisma().message.findMany({
    where: { appId, eventType, createdAt: { gte: from, lt: to } },
    ...pageArgs(cursor, limit),
  });
  return toPage(rows, limit, messageView);
}
