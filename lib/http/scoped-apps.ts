import { visibleAppIds, type Principal } from '../domain/auth/principal';
import type { AppScope } from '../domain/apps/app-scope';
import { notFound } from '../domain/errors';

/**
 * The apps a cross-app query may look at (lib/domain/apps/app-scope.ts): the app asked for, which must
 * be one the caller may see (another is a 404, as if it did not exist); else an app-limited key's app or
 * the apps a member is held to, all of them, filtered in the database; else every app.
 */
export function scopedApps(principal: Principal, requested: string | undefined): AppScope {
  const visible = visibleAppIds(principal);
  if (visible === null) return requested === undefined ? {} : { appId: requested };
  if (requested !== undefined && !visible.includes(requested)) throw notFound('App', requested);
  if (requested !== undefined) return { appId: requested };
  return visible.length === 1 ? { appId: visible[0] } : { appIds: visible };
}
