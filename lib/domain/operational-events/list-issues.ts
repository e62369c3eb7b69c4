import { decodeCursor, type CursorPosition } from '../cursor';
import { getPrisma } from '../../database/db';
import type { Prisma } from '../../generated/prisma/client';
import { issueView } from './issue-view';
import { appScopeWhere, type AppScope } from '../apps/app-scope';

export interface ListIssuesInput extends AppScope {
  /** appId, appIds: already scoped to the caller's apps (lib/http/scoped-apps.ts). */
  status?: 'open' | 'acknowledged' | 'resolved' | 'unresolved';
  limit: number;
  cursor?: string;
}

/**
 * Issues, most recently seen first. The cursor is the last row's id; Prisma positions on that row's
 * (last_seen_at, id) inside the database. An issue seen again while a client pages moves to the top,
 * where that client will not look again: the list is a live view, not a snapshot.
 */
export async function listIssues({ appId, appIds, status, limit, cursor }: ListIssuesInput) {
  const where: Prisma.IssueWhereInput = {
    ...appScopeWhere({ appId, appIds }),
    ...(status === 'unresolved' ? { status: { in: ['open', 'acknowledged'] } } : status ? { status } : {}),
  };
  const rows = await findIssues(where, decodeCursor(cursor), limit);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? Buffer.from(JSON.stringify({ id: last.id, t: last.lastSeenAt.getTime() }), 'utf8').toString('base64url')
      : null;
  const endpointIds = [...new Set(page.flatMap((row) => (row.endpointId ? [row.endpointId] : [])))];
  const endpoints = endpointIds.length
    ? await getPrisma().endpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, url: true } })
    : [];
  const urls = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  return {
    data: page.map((row) => issueView(row, row.endpointId ? (urls.get(row.endpointId) ?? null) : null)),
    nextCursor,
  };
}

// findPage's positioning (lib/domain/cursor.ts), on last_seen_at instead of created_at. No `skip: 1`:
// the cursor row no longer matches the filter when it was acknowledged or resolved while a client pages
// through the open issues, and skipping one would then drop an issue the client never saw. The cursor
// row is dropped by id instead; a deleted one (its app was deleted) starts the page at the end of its
// millisecond rather than ending the list.
async function findIssues(where: Prisma.IssueWhereInput, after: CursorPosition | undefined, limit: number) {
  const issues = getPrisma().issue;
  const orderBy: Prisma.IssueOrderByWithRelationInput[] = [{ lastSeenAt: 'desc' }, { id: 'desc' }];
  if (!after) return issues.findMany({ where, orderBy, take: limit + 1 });
  const rows = await issues.findMany({ where, orderBy, cursor: { id: after.id }, take: limit + 2 });
  if (rows[0]?.id === after.id) return rows.slice(1);
  if (rows.length > 0 || (await issues.count({ where: { id: after.id } })) > 0) return rows;
  return issues.findMany({
    where: { AND: [where, { lastSeenAt: { lt: new Date(after.t + 1) } }] },
    orderBy,
    take: limit + 1,
  });
}
