import { Prisma } from '../../generated/prisma/client';
import { payloadSearchProblems, type PayloadSearchParams } from '../../contract/schemas/payload-search';
import { invalidQueryFields, type FieldProblem } from '../errors';

/**
 * The SQL condition on `m.payload` (a message aliased m) that a search's parameters ask for, or null
 * when they ask for none. Every condition reads the payload itself: no index serves them (see
 * walk-back.ts), so they run only on the rows of one time slice of one app.
 * - search: a substring of the payload as PostgreSQL prints it, any case;
 * - payloadPath + payloadValue, equals: the field is that JSON value (not JSON: that string);
 * - payloadPath + payloadValue, contains: the field, as text, holds that substring, any case.
 */
export function payloadCondition(params: PayloadSearchParams): Prisma.Sql | null {
  const problems: FieldProblem[] = payloadSearchProblems(params).map(({ path, message }) => ({
    path: path[0],
    message,
  }));
  if (problems.length > 0) throw invalidQueryFields(problems);

  const conditions: Prisma.Sql[] = [];
  if (params.search !== undefined) {
    // strpos, not LIKE: the text is the caller's, and % or _ in it mean themselves.
    conditions.push(Prisma.sql`strpos(lower(m.payload::text), lower(${params.search})) > 0`);
  }
  if (params.payloadPath !== undefined && params.payloadValue !== undefined) {
    const path = params.payloadPath.split('.');
    if ((params.payloadMatch ?? 'equals') === 'equals') {
      conditions.push(Prisma.sql`m.payload #> ${path}::text[] = ${jsonValueOf(params.payloadValue)}::jsonb`);
    } else {
      conditions.push(Prisma.sql`strpos(lower(m.payload #>> ${path}::text[]), lower(${params.payloadValue})) > 0`);
    }
  }
  return conditions.length === 0 ? null : Prisma.join(conditions, ' AND ');
}

/** The JSON text of what payloadValue stands for: itself when it is JSON (42, true, "x"), else a string. */
export function jsonValueOf(value: string): string {
  try {
    JSON.parse(value);
    return value;
  } catch {
    return JSON.stringify(value);
  }
}
