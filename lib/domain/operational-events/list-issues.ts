import { decodeCursor } from '../cursor';
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
  const after = decodeCursor(cursor);
  const rows = await getPrisma().issue.findMany({
    where,
    orderBy: [{ lastSeenAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    ...(after ? { cursor: { id: after.id }, skip: 1 } : {}),
  });
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
