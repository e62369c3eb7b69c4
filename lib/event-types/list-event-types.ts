import { requireApp } from '../apps/require-app';
import { getPrisma } from '../db';
import { eventTypeView } from './event-type-view';
import { pageArgs, toPage } from '../api/cursor';

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
  const rows = await getPrisma().eventType.findMany({
    where: { appId, ...(includeArchived ? {} : { archived: false }) },
    ...pageArgs(cursor, limit),
  });
  return toPage(rows, limit, eventTypeView);
}
