import { Prisma } from '../../generated/prisma/client';
import type { PrismaClient } from '../../database/db';
import { idTimeMs, publicDeliveryId, storedDeliveryId, storedIdAt, storedIds } from '../../database/ids';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import { decodeCursor, encodeCursor } from '../cursor';
import { DomainError } from '../errors';
import { expandStateFilter } from './delivery-states';
import type { DeliveryRow } from './delivery-view';

// A message's first attempts that are being sent now have no delivery row until their outcome is
// written (migration 20261206090000_first_attempts_written_once): prisma/functions/first-attempts-in-flight.sql
// finds them. Shown as the rows they will be, 'delivering' with no attempt counted yet, under the ids
// those rows will have, so that a message's deliveries and a delivery's page show them, and the page a
// list links to exists. Their ids are stored ones (uuid), as Prisma's delivery rows' are: deliveryView
// makes both public (lib/database/ids.ts).

type Db = Pick<PrismaClient, '$queryRaw'>;

interface InFlightRow {
  id: string;
  message_id: string;
  endpoint_id: string;
  event_type: string;
  created_at: Date;
  lease_owner: string;
  lease_expires_at: Date;
  endpoint_url: string;
}

function asDeliveryRow(appId: string, row: InFlightRow): DeliveryRow {
  return {
    id: row.id,
    appId,
    messageId: row.message_id,
    endpointId: row.endpoint_id,
    eventType: row.event_type,
    state: 'delivering',
    attemptCount: 0,
    // Due when its message was written, as the written row's will read until its outcome.
    nextAttemptAt: row.created_at,
    claimableAt: null,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastErrorClass: null,
    lastDurationMs: null,
    createdAt: row.created_at,
    updatedAt: row.created_at,
    endpoint: { url: row.endpoint_url },
  };
}

/** The rows one of prisma/functions/first-attempts-in-flight.sql's functions returns, as delivery rows, newest first. */
async function readInFlight(db: Db, appId: string, inFlight: Prisma.Sql, where = Prisma.empty): Promise<DeliveryRow[]> {
  const rows = await db.$queryRaw<InFlightRow[]>`
    SELECT f.*, e.url AS endpoint_url
      FROM ${inFlight} AS f
      JOIN hookline.endpoints AS e ON e.id = f.endpoint_id
     ${where}
     ORDER BY f.created_at DESC, f.id DESC`;
  return rows.map((row) => asDeliveryRow(appId, row));
}

/** The first attempts in flight of these messages of the app (their public ids), as delivery rows, newest first. */
export async function firstAttemptsInFlight(db: Db, appId: string, messageIds: string[]): Promise<DeliveryRow[]> {
  const stored = storedIds('msg', messageIds);
  if (stored.length === 0) return [];
  return readInFlight(db, appId, Prisma.sql`hookline.first_attempts_in_flight(${appId}, ${stored}::uuid[])`);
}

/** The first attempts in flight to one endpoint of the app, as delivery rows, newest first. */
export async function firstAttemptsInFlightTo(db: Db, appId: string, endpointId: string): Promise<DeliveryRow[]> {
  return readInFlight(db, appId, Prisma.sql`hookline.first_attempts_in_flight_to(${appId}, ${endpointId})`);
}

/**
 * The first attempt in flight with this delivery id (public), if there is one. A delivery's id starts
 * with its message's 12 hex digits of milliseconds (hookline.delivery_id): the app's messages of that
 * millisecond are the candidates, a range of its key (storedIdAt of it to storedIdAt of the next).
 */
export async function firstAttemptInFlight(db: Db, appId: string, deliveryId: string): Promise<DeliveryRow | null> {
  const stored = storedDeliveryId(deliveryId);
  if (stored === null) return null;
  const millisecond = idTimeMs(stored);
  const candidates = Prisma.sql`
    ARRAY(SELECT m.id FROM hookline.messages AS m
           WHERE m.app_id = ${appId}
             AND m.id >= ${storedIdAt(millisecond)}::uuid AND m.id < ${storedIdAt(millisecond + 1)}::uuid)`;
  const [row] = await readInFlight(
    db,
    appId,
    Prisma.sql`hookline.first_attempts_in_flight(${appId}, ${candidates})`,
    Prisma.sql`WHERE f.id = ${stored}::uuid`,
  );
  return row ?? null;
}

/** Whether a first attempt in flight (state delivering, no attempt counted, no outcome) passes the filter. */
export function inFlightMatches(filter: DeliveryFilter, row: DeliveryRow): boolean {
  if (filter.state !== undefined && !expandStateFilter(filter.state).includes('delivering')) return false;
  if (filter.id !== undefined && filter.id !== publicDeliveryId(row.id)) return false;
  if (filter.endpointId !== undefined && filter.endpointId !== row.endpointId) return false;
  if (filter.eventType !== undefined && filter.eventType !== row.eventType) return false;
  if (filter.attemptCount !== undefined && filter.attemptCount !== 0) return false;
  if (filter.minAttempts !== undefined && filter.minAttempts > 0) return false;
  if (filter.errorClass !== undefined || filter.statusCode !== undefined) return false;
  if (filter.from !== undefined && row.createdAt < filter.from) return false;
  if (filter.to !== undefined && row.createdAt >= filter.to) return false;
  return true;
}

/** Newest first, as lib/domain/cursor.ts pages: by created_at, then id (stored ids, all read alike: a
 * uuid's text, dashed as PostgreSQL prints it, sorts as the uuid does). */
export const newestFirst = (a: DeliveryRow, b: DeliveryRow) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * A page of one message's or one endpoint's deliveries (lib/domain/cursor.ts: newest first) with its
 * first attempts in flight put where their rows will be: by their message's created_at, as their
 * written rows will have it, then id. Those before the cursor were on an earlier page; past the page's
 * last row, on a later one (when there is one). The cursor carries milliseconds: one in flight of
 * another message of the cursor row's millisecond is placed by id alone.
 */
export function withFirstAttemptsInFlight(
  page: { data: DeliveryRow[]; nextCursor: string | null },
  inFlight: DeliveryRow[],
  { cursor, limit }: { cursor?: string; limit: number },
): { data: DeliveryRow[]; nextCursor: string | null } {
  if (inFlight.length === 0) return page;
  const position = decodeCursor(cursor);
  const last = page.data.at(-1);
  const placed = inFlight.filter(
    (row) =>
      (!position ||
        row.createdAt.getTime() < position.t ||
        (row.createdAt.getTime() === position.t && publicDeliveryId(row.id) < position.id)) &&
      (page.nextCursor === null || !last || newestFirst(row, last) <= 0),
  );
  const merged = [...page.data, ...placed].sort(newestFirst);
  const data = merged.slice(0, limit);
  const more = merged.length > limit || page.nextCursor !== null;
  const end = data.at(-1);
  return {
    data,
    nextCursor: more && end ? encodeCursor(end, 'dlv') : null,
  };
}

/** Refuses to change a delivery whose first attempt is being sent: it has no row to change yet. */
export function firstAttemptInFlightError(action: 'cancel' | 'replay'): DomainError {
  return new DomainError(
    'delivery_in_flight',
    `The delivery is being sent for the first time right now; ${action} it once this attempt is recorded`,
  );
}
