// Which apps a cross-app read or aggregate covers: one app (asked for, or the caller's only one), the
// apps a member is held to (appIds), or every app (neither). lib/http/scoped-app-id.ts builds it from
// the caller; the domain functions filter by it in the database, so a member held to several apps sees
// all of theirs and never another's rows, in lists and in sums alike.
import { Prisma } from '../../generated/prisma/client';

export interface AppScope {
  appId?: string;
  /** The apps a member is held to, when no single app is asked for; never empty. */
  appIds?: string[];
}

/** The scope as a Prisma filter on a model's appId. */
export function appScopeWhere({ appId, appIds }: AppScope): { appId?: string | { in: string[] } } {
  if (appId) return { appId };
  if (appIds) return { appId: { in: appIds } };
  return {};
}

/** The scope as `AND <column> ...` for hand-written SQL (empty for every app). */
export function appScopeSql({ appId, appIds }: AppScope, column: string): Prisma.Sql {
  if (appId) return Prisma.sql`AND ${Prisma.raw(column)} = ${appId}`;
  if (appIds) return Prisma.sql`AND ${Prisma.raw(column)} = ANY(${appIds})`;
  return Prisma.empty;
}
