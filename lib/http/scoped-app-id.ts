import type { Principal } from '../domain/auth/principal';
import { notFound } from '../domain/errors';

/** The app a query may look at: an app-limited key is held to its own app (another app id is a 404). */
export function scopedAppId(principal: Principal, requested: string | undefined): string | undefined {
  if (principal.appId === null) return requested;
  if (requested !== undefined && requested !== principal.appId) throw notFound('App', requested);
  return principal.appId;
}
