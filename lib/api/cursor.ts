// Cursor pagination on (created_at, id), newest first. The cursor names the last row of the page; the
// next page starts strictly after that row's exact (created_at, id) as read in the database (Prisma's
// cursor option compares against the row itself), so rows inserted meanwhile never shift a page, and
// microsecond timestamps are not rounded through JavaScript's millisecond Date.
import { badRequest } from '../errors';

export function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ id }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
    if (typeof decoded.id === 'string' && decoded.id.length > 0 && decoded.id.length <= 200 && !decoded.id.includes('\u0000')) {
      return decoded.id;
    }
  } catch {
    // fall through
  }
  throw badRequest('invalid_cursor', 'cursor is not a cursor returned by this API (use nextCursor of the previous page)');
}

/** Prisma arguments for one page: one extra row tells whether a next page exists. */
export function pageArgs(cursor: string | undefined, limit: number) {
  const id = decodeCursor(cursor);
  return {
    take: limit + 1,
    ...(id ? { cursor: { id }, skip: 1 } : {}),
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
  };
}

export function toPage<T extends { id: string }, V>(rows: T[], limit: number, view: (row: T) => V) {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return { data: pageRows.map(view), nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
