import { getPrisma } from '../../database/db';
import { appScopeWhere, type AppScope } from '../apps/app-scope';

/** Issues per status, for the nav badge and the overview (a few rows per status at most: issues are per endpoint). */
export async function countIssues(scope: AppScope) {
  const groups = await getPrisma().issue.groupBy({
    by: ['status'],
    where: appScopeWhere(scope),
    _count: { _all: true },
  });
  const count = (status: string) => groups.find((group) => group.status === status)?._count._all ?? 0;
  return { open: count('open'), acknowledged: count('acknowledged'), resolved: count('resolved') };
}
