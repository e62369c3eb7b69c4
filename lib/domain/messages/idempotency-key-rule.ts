// What an idempotency key may be, whichever way a message comes in: the REST API's Idempotency-Key
// header (lib/contract/schemas/messages.ts) and hookline.send's idempotency_key (migration
// 20261125100000_send_validation). test/api/ways-in-agree.test.ts runs the same keys through both.

export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

// Printable ASCII without spaces: a key that travels in an HTTP header must arrive byte for byte, and a
// tab, a space at either end or a non-ASCII byte does not survive every client and proxy unchanged. A
// key recorded through SQL with one of those could never be repeated through REST.
export const IDEMPOTENCY_KEY_CHARACTERS = /^[\x21-\x7e]+$/;

export const IDEMPOTENCY_KEY_LENGTH_RULE = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;
export const IDEMPOTENCY_KEY_CHARACTERS_RULE = 'must be printable ASCII without spaces';
