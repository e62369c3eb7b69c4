// The request headers Hookline sets itself, in one place: the API refuses them on an endpoint
// (lib/domain/endpoints/check-endpoint-target.ts), the worker drops them from stored headers before sending
// (worker/deliver.ts), and hookline.http_post drops them from what a trigger passes (migration
// 20261124161000_reserved_headers, checked against this list by test/sql/reserved-headers.test.ts).
//
// The worker sets the framing and the JSON content type itself, and undici refuses most connection
// management headers outright (Keep-Alive, Upgrade, Transfer-Encoding, Expect): one stored through
// hookline.http_post failed every attempt before this list reached the SQL side and the worker.
export const RESERVED_HEADERS: readonly string[] = [
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
];

// Standard Webhooks names its headers webhook-id, webhook-timestamp and webhook-signature; the whole
// prefix is kept for the signature scheme, so a receiver can trust every webhook-* header it gets.
export const RESERVED_HEADER_PREFIX = 'webhook-';

const reserved = new Set(RESERVED_HEADERS);

/** Case-insensitive, as header names are. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return reserved.has(lower) || lower.startsWith(RESERVED_HEADER_PREFIX);
}
