// Message and delivery ids as stored and as seen (migration 20261208090000_ids_as_uuid).
//
// PostgreSQL stores them as uuid, 16 bytes instead of 37 (155-181 B of WAL less per event in a 100k
// drain on PostgreSQL 18 and 15: bench/README.md); everything
// outside it (the API, the dashboard, webhook-id headers, jobs' filters, logs) sees the public ids,
// 'msg_' or 'dlv_' and the same 32 hex digits. These turn one into the other without a lookup, as
// hookline.public_id and hookline.uuid_of(kind, id) do in SQL (prisma/functions/new-id.sql).
//
// A public id that is not one of its kind's ('dlv_…' asked for as a message, a typo, an id of another
// system) has no stored form: storedMessageId and storedDeliveryId answer null, and the caller answers
// as it does for an id nothing has (404, an empty list). Passed to PostgreSQL as it is, it was an
// error (invalid input syntax for type uuid), where a text id had simply matched no row.

export type IdKind = 'msg' | 'dlv';

const PUBLIC_ID = /^(msg|dlv)_([0-9a-f]{32})$/;

/** The uuid a public id is stored as (32 hex digits, which PostgreSQL reads as a uuid), or null. */
export function storedId(kind: IdKind, publicId: string): string | null {
  const match = PUBLIC_ID.exec(publicId);
  return match && match[1] === kind ? match[2]! : null;
}

/** The public id of a stored uuid, as PostgreSQL returns it (with dashes) or as 32 hex digits. */
export function publicId(kind: IdKind, stored: string): string {
  return `${kind}_${stored.replaceAll('-', '')}`;
}

export const storedMessageId = (id: string) => storedId('msg', id);
export const storedDeliveryId = (id: string) => storedId('dlv', id);
export const publicMessageId = (stored: string) => publicId('msg', stored);
export const publicDeliveryId = (stored: string) => publicId('dlv', stored);

/** The 12 hex digits of millisecond `ms` that begin every id made in it. */
export const millisecondHex = (ms: number) => Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');

/** The first stored id (uuid, as 32 hex digits) of millisecond `ms`: hookline.id_at('', ms). */
export const storedIdAt = (ms: number) => `${millisecondHex(ms)}${'0'.repeat(20)}`;

/** The uuid a position stands for (32 hex digits): an id's digits, or a millisecond's 12 and zeros after them. */
export const storedBound = (position: string) => hexDigitsOf(position).padEnd(32, '0');

/** The millisecond an id was made in: a public one (msg_…, dlv_…) or a stored one (a uuid, dashed or not). */
export const idTimeMs = (id: string) => parseInt(hexDigitsOf(id).slice(0, 12), 16);

const hexDigitsOf = (id: string) => id.slice(id.indexOf('_') + 1).replaceAll('-', '');

/** The stored forms of those of `ids` that are ids of `kind`; the others name nothing and are left out. */
export function storedIds(kind: IdKind, ids: readonly string[]): string[] {
  return ids.map((id) => storedId(kind, id)).filter((id): id is string => id !== null);
}
