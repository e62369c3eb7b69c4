// The payload search the message and delivery lists share (issue 23 item 10): a substring of the body,
// or a JSON path equal to or containing a value, over any range. No index serves it (a GIN index would
// tax every producer's insert), so a search walks back through time in slices under a time budget
// (lib/domain/search/walk-back.ts) and answers what it found with where it got to: `searchedBackTo`,
// and a cursor to continue from there.
import { z } from 'zod';
import { PAYLOAD_MATCHES } from '../payload-search-params';
import { page, timestamp, type Page } from './common';

export {
  PAYLOAD_MATCHES,
  isPayloadSearch,
  payloadSearchProblems,
  type PayloadMatch,
  type PayloadSearchParams,
} from '../payload-search-params';

export const payloadSearchQuery = {
  search: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'A substring of the payload, any case, as PostgreSQL prints JSON ({"a": 1}: a space after each colon and comma); any range',
    ),
  payloadPath: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'must be dot-separated keys, e.g. customer.id')
    .optional()
    .describe('A payload field to match, dot-separated (needs payloadValue); any range'),
  payloadValue: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'equals: the JSON value payloadPath must equal (42, true, "x"; anything that is not JSON is a string); contains: a substring of it, any case',
    ),
  payloadMatch: z
    .enum(PAYLOAD_MATCHES)
    .optional()
    .describe('How payloadValue matches the field at payloadPath: equals (the default) or contains'),
};

/** A list page that may come from a search: with a search, `nextCursor` continues it from `searchedBackTo`. */
export function searchablePage<T extends z.ZodType>(item: T) {
  return page(item).extend({
    searchedBackTo: timestamp
      .nullable()
      .describe(
        'With search or payloadPath (on messages also eventType, statusCode, errorClass or minAttempts; on deliveries eventType, errorClass, statusCode, attemptCount or minAttempts without id, messageId or idempotencyKey): how far back in time this page searched (every match newer than it, within the range, is on this page or an earlier one); the walk goes on from there with nextCursor, which is null once the whole range is searched. Null without a search, or when the search reached the oldest data kept.',
      ),
  });
}

/** A list answer that may come from a search (the JSON searchablePage describes). */
export type SearchablePage<Item> = Page<Item> & { searchedBackTo: string | null };
