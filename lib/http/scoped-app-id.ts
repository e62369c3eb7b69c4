import { visibleAppIds, type Principal } from '../domain/auth/principal';
import { invalidQuery, notFound } from '../domain/errors';

/**
 * The app a query may look at: an app-limited key (or a member held to one app) is held to its own app,
 * another app id is a 404. A member held to several apps names one of them; asking across apps would
 * count the others' rows.
 */
export function scopedAppId(principal: Principal, requested: string | undefined): string | undefined {
  const visible = visibleAppIds(principal);
  if (visible === null) return requested;
  if (requested !== undefined && !visible.includes(requested)) throw notFound('App', requested);
  if (requested === undefined && visible.length > 1) {
    throw invalidQuery('appId', 'your role is held to several apps: name one of them');
  }
  return requested ?? visible[0];
}
