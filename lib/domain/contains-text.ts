import type { Prisma } from '../generated/prisma/client';

/**
 * A Prisma condition: the column contains `text` anywhere, in any case. Prisma hands `contains` to
 * ILIKE as it is, where "_" matches any character and "%" any run of them; here they match themselves.
 * A substring anywhere in a value is found by no index: for the small lists pickers search (an app's
 * event types, the apps), not for hot tables.
 */
export function containsText(text: string): Prisma.StringFilter {
  return { contains: text.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' };
}
