import { findPage } from '../cursor';
import { containsText } from '../contains-text';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import { appView } from './app-view';
import { summarizeApps } from './summarize-apps';

/** Newest first; an app-limited key sees only its own app, a member held to some apps only those. With `summary`, each app carries its
 * endpoint count, 24 h success rate and queued deliveries (see summarizeApps). `search` is for pickers: a
 * deployment with an app per customer has thousands. */
export async function listApps({
  onlyAppIds,
  exceptAppIds = [],
  limit,
  cursor,
  summary,
  search,
}: {
  onlyAppIds: string[] | null;
  /** Apps left out of the list whatever else holds (the operations app, for who may not open it). */
  exceptAppIds?: string[];
  limit: number;
  cursor?: string;
  summary?: boolean;
  /** Only apps whose name or id contains this text, in any case. */
  search?: string;
}) {
  const prisma = await readPrisma();
  const where: Prisma.AppWhereInput = {
    ...(onlyAppIds ? { id: { in: onlyAppIds } } : {}),
    ...(exceptAppIds.length > 0 ? { AND: [{ id: { notIn: exceptAppIds } }] } : {}),
    ...(search === undefined ? {} : { OR: [{ name: containsText(search) }, { id: containsText(search) }] }),
  };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.app.findMany(query));
  if (!summary) return { data: page.data.map(appView), nextCursor: page.nextCursor };
  const summaries = await summarizeApps(page.data.map((row) => row.id));
  return {
    data: page.data.map((row) => ({ ...appView(row), summary: summaries.get(row.id)! })),
    nextCursor: page.nextCursor,
  };
}
