import { findPage } from '../api/cursor';
import { getPrisma } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { appView } from './app-view';

/** Newest first; an app-limited key sees only its own app. */
export async function listApps({
  onlyAppId,
  limit,
  cursor,
}: {
  onlyAppId: string | null;
  limit: number;
  cursor?: string;
}) {
  const prisma = getPrisma();
  const where: Prisma.AppWhereInput = onlyAppId ? { id: onlyAppId } : {};
  const page = await findPage({ where, cursor, limit }, (query) => prisma.app.findMany(query));
  return { data: page.data.map(appView), nextCursor: page.nextCursor };
}
