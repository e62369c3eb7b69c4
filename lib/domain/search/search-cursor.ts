// Where a payload search stopped, as the nextCursor a client sends back. A search walks messages by
// id, newest first (an id's first 12 hex digits are its milliseconds), so its position is a message id:
// the next page searches the ids below it. A delivery search whose page filled up inside one message's
// deliveries also carries the last delivery listed: the next page starts with that message's
// deliveries below it. A delivery list filtered on what no index serves walks deliveries by their own
// ids instead: its position is the last delivery listed.
// Ids here are public ('msg_' or 'dlv_' and 32 hex digits; a position may stop at the 12 of its
// millisecond): the digits are the stored uuid's (lib/database/ids.ts), which a statement gets.
import { DomainError } from '../errors';

export interface SearchPosition {
  /** A message id (a delivery id when the walk reads deliveries): the search goes on with the ids below
   * it (with `delivery`, with it too). */
  before: string;
  /** The last delivery listed of message `before`: its deliveries with smaller ids are still to come. */
  delivery?: string;
  /** The slice length the walk had adapted to (walk-back.ts), so the next page starts with it. */
  sliceMs?: number;
}

const MESSAGE_POSITION = /^msg_[0-9a-f]{12}(?:[0-9a-f]{20})?$/;
const DELIVERY_POSITION = /^dlv_[0-9a-f]{12}(?:[0-9a-f]{20})?$/;
/** A whole id: a position with the last delivery listed names that delivery and its message. */
const MESSAGE_ID = /^msg_[0-9a-f]{32}$/;
const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;

export function encodeSearchCursor(position: SearchPosition): string {
  return Buffer.from(
    JSON.stringify({ s: position.before, d: position.delivery, w: position.sliceMs }),
    'utf8',
  ).toString('base64url');
}

/** `walked`: what the walk reads (walk-back.ts); a walk of deliveries is positioned by a delivery id. */
export function decodeSearchCursor(
  cursor: string | undefined,
  walked: 'messages' | 'deliveries' = 'messages',
): SearchPosition | undefined {
  if (cursor === undefined) return undefined;
  try {
    const { s, d, w } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      s?: unknown;
      d?: unknown;
      w?: unknown;
    };
    if (
      typeof s === 'string' &&
      (walked === 'messages' ? MESSAGE_POSITION.test(s) : DELIVERY_POSITION.test(s) && d === undefined) &&
      (d === undefined || (typeof d === 'string' && DELIVERY_ID.test(d) && MESSAGE_ID.test(s))) &&
      (w === undefined || (typeof w === 'number' && Number.isFinite(w) && w > 0))
    ) {
      return {
        before: s,
        ...(d === undefined ? {} : { delivery: d as string }),
        ...(w === undefined ? {} : { sliceMs: w as number }),
      };
    }
  } catch {
    // fall through
  }
  throw new DomainError(
    'invalid_cursor',
    'cursor is not a cursor of this search (use nextCursor of the previous page, with the same search parameters)',
    [{ path: 'cursor', message: 'is not a cursor of this search' }],
  );
}
