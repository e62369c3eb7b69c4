// Migration tests read the same columns before a migration (message and delivery ids stored as their
// public text) and after the latest (stored as uuid since migration 20261208090000_ids_as_uuid): this
// gives the public id either way, so a test compares what it read before with what it reads after.
import { publicId, type IdKind } from '../../lib/database/ids';

export function asPublicId(kind: IdKind, id: string): string {
  return id.startsWith(`${kind}_`) ? id : publicId(kind, id);
}

/** A period's bound over uuid ids, as PostgreSQL prints it: 12 hex digits of milliseconds, zeros after. */
export function uuidBound(millis: string): string {
  return `${millis.slice(0, 8)}-${millis.slice(8, 12)}-0000-0000-000000000000`;
}

/** Partition bounds of text ids ('msg_' or 'dlv_' and 12 hex digits) as the uuid bounds they became. */
export function withUuidBounds(text: string): string {
  return text.replace(/'(?:msg|dlv)_([0-9a-f]{12})'/g, (_, millis: string) => `'${uuidBound(millis)}'`);
}
