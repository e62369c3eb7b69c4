// Shared pieces of the REST contract. These zod schemas validate requests and are also the source of
// the OpenAPI document (lib/contract/openapi/build-openapi-document.ts), so the two cannot drift apart.
import { z } from 'zod';

/** Path ids: any short string; an id that does not exist (or is malformed) is a 404, not a 422. */
export const pathId = z.string().min(1).max(200);

export const timestamp = z.iso.datetime({ offset: true }).describe('ISO-8601 timestamp');

/**
 * An ISO-8601 timestamp in a request, parsed to a Date (impossible dates such as Feb 31 are refused).
 * Postgres has no year 0 and the wire format has four-digit years, so the instant, in UTC, must fall in
 * the years 1 to 9999 ("0000-01-01T00:00:00Z" would otherwise reach the database and fail there).
 */
export const isoDate = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine(
    (date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999,
    'must be between the years 1 and 9999 (UTC)',
  );

export const limitQuery = z.coerce
  .number()
  .int()
  .min(1)
  .max(250)
  .default(50)
  .describe('Page size, 1 to 250 (default 50)');

export const cursorQuery = z
  .string()
  .max(500)
  .optional()
  .describe('The nextCursor of the previous page; omit for the first page');

export const pageQuery = z.object({ limit: limitQuery, cursor: cursorQuery });

export function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}

/**
 * The JSON a client receives from an operation answering with schema S: the type the dashboard
 * (lib/client, components/) reads its answers as, exported beside each response schema.
 *
 * The response schemas describe that JSON itself: timestamps are ISO strings (`timestamp` above, never
 * z.date()), which the handlers' Dates become in Response.json, and route() checks each answer after
 * that round trip. With no transform or default in a response schema, its input type (what was sent)
 * and output type (what parsing it gives) are one type, and this is it. Should a response schema ever
 * transform a value (a string parsed to a Date) or default one (an optional field made required), the
 * output would no longer be what the browser receives, which parses nothing: the type becomes never,
 * and the dashboard code reading it stops compiling instead of trusting a shape that is not sent.
 */
export type ResponseBody<S extends z.ZodType> = [z.input<S>] extends [z.output<S>]
  ? [z.output<S>] extends [z.input<S>]
    ? z.output<S>
    : never
  : never;

/** A list answer: one page of Item, newest first, and the cursor of the next page. */
export type Page<Item> = ResponseBody<ReturnType<typeof page<z.ZodType<Item, Item>>>>;

export const eventTypeName = z
  .string()
  .min(1)
  .max(128)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
    'must start with a letter or digit and contain only letters, digits, ".", "_", ":" and "-"',
  );

export const errorBody = z.object({
  error: z.object({
    code: z.string().describe('snake_case, stable'),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});

export const replayResult = z.object({ replayed: z.number().int() });
export type ReplayResult = ResponseBody<typeof replayResult>;
