// Cursor pagination on (created_at, id), newest first. Rows inserted while a client pages land before
// its cursor, so they never shift a page: no row is listed twice, and every row that existed when paging
// started is listed once.
//
// Positioning uses Prisma's cursor option, which reads the cursor row's created_at inside the database:
// Postgres keeps microseconds, a JavaScript Date (and every value Prisma sends) only milliseconds, and
// rows created in one transaction share one created_at, so comparing against a Date would skip or
// repeat rows. Two traps of Prisma's cursor are avoided here:
// - The usual `skip: 1` assumes the cursor row is in the result. When it no longer matches the filter
//   (a dead delivery replayed while paging through dead deliveries), skip 1 drops a row never shown.
//   The cursor row is dropped by id instead.
// - When the cursor row was deleted (retention, a deleted endpoint), Prisma finds nothing, which reads
//   as the last page. The cursor also carries the row's created_at in milliseconds, and the page then
//   starts at the end of that millisecond: never a skip, at worst a repeat of rows from that millisecond.
// A cursor carries the public id of its row: for a model whose ids are stored as uuid (deliveries:
// migration 20261208090000_ids_as_uuid), findPage is told their kind, makes the id public for the
// cursor and stored again for the query. A cursor id that is no id of that kind names no row, and
// pages as a cursor whose row is gone.
import { publicId, storedId, type IdKind } from '../database/ids';
import { DomainError } from './errors';

export interface CursorPosition {
  id: string;
  /** created_at of the cursor row, milliseconds since the epoch. */
  t: number;
}

export interface PageRow {
  id: string;
  createdAt: Date;
}

type NewestFirst = [{ createdAt: 'desc' }, { id: 'desc' }];

/** The arguments findPage passes to a model's findMany; `where` is the caller's filter or a narrowing of it. */
export interface PageQuery<Where> {
  where: Where | { AND: [Where, { createdAt: { lt: Date } }] } | { id: string };
  cursor?: { id: string };
  take: number;
  orderBy: NewestFirst;
}

// The instants a cursor may carry: Postgres has no year 0, and the API's timestamps have four-digit years.
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.998Z');

/** `ids`: the kind of the row's id when it is stored as uuid; the cursor carries the public id. */
export function encodeCursor(row: PageRow, ids?: IdKind): string {
  const position: CursorPosition = { id: ids ? publicId(ids, row.id) : row.id, t: row.createdAt.getTime() };
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): CursorPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPosition>;
    const { id, t } = decoded;
    if (
      typeof id === 'string' &&
      id.length > 0 &&
      id.length <= 200 &&
      !id.includes('\u0000') &&
      typeof t === 'number' &&
      Number.isInteger(t) &&
      t >= EARLIEST &&
      t <= LATEST
    ) {
      return { id, t };
    }
  } catch {
    // fall through
  }
  throw new DomainError(
    'invalid_cursor',
    'cursor is not a cursor returned by this API (use nextCursor of the previous page)',
    [{ path: 'cursor', message: 'is not a cursor returned by this API' }],
  );
}

/**
 * One page of `limit` rows matching `where`, after `cursor`. `findMany` runs the model's findMany with
 * the given arguments (adding an include if the view needs one). `ids`: the kind of the model's ids
 * when they are stored as uuid (lib/database/ids.ts); the rows keep their stored ids, the cursor the
 * public one.
 */
export async function findPage<Where, Row extends PageRow>(
  { where, cursor, limit, ids }: { where: Where; cursor?: string; limit: number; ids?: IdKind },
  findMany: (query: PageQuery<Where>) => Promise<Row[]>,
): Promise<{ data: Row[]; nextCursor: string | null }> {
  const orderBy: NewestFirst = [{ createdAt: 'desc' }, { id: 'desc' }];
  const position = decodeCursor(cursor);
  const stored = position && (ids ? storedId(ids, position.id) : position.id);
  const shown = (row: PageRow) => (ids ? publicId(ids, row.id) : row.id);
  let rows: Row[];
  if (!position) {
    rows = await findMany({ where, take: limit + 1, orderBy });
  } else {
    // One more than usual: the cursor row itself comes back first when it still matches the filter.
    rows = stored === null ? [] : await findMany({ where, cursor: { id: stored! }, take: limit + 2, orderBy });
    if (rows[0] && shown(rows[0]) === position.id) rows = rows.slice(1);
    else if (
      rows.length === 0 &&
      (stored === null || (await findMany({ where: { id: stored! }, take: 1, orderBy })).length === 0)
    ) {
      rows = await findMany({
        where: { AND: [where, { createdAt: { lt: new Date(position.t + 1) } }] },
        take: limit + 1,
        orderBy,
      });
    }
  }
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(last, ids) : null };
}
