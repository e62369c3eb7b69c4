import { assertSameOrigin } from '../auth/authenticate-request';
import type { Principal } from '../../domain/auth/principal';
import { unauthorized } from '../http-error';
import { findPortalSession } from '../../domain/portal/find-portal-session';
import { readPortalCookie } from './portal-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The principal of a request below /portal: the portal cookie and nothing else. A Bearer key or the
 * admin cookie (Path=/, so the browser sends it here too) would otherwise widen a portal page to every
 * app. The cookie is SameSite=None over https so an embedded portal works, hence the Origin check on
 * every state change.
 */
export async function authenticatePortalRequest(request: Request): Promise<Principal> {
  const session = await findPortalSession(readPortalCookie(request.headers.get('cookie')));
  if (!session) {
    throw unauthorized('The portal session is missing, expired or revoked; open a new portal link');
  }
  if (!SAFE_METHODS.has(request.method.toUpperCase())) assertSameOrigin(request);
  return {
    kind: 'portal',
    id: `portal:${session.id}`,
    sessionId: session.id,
    appId: session.appId,
    readOnly: session.readOnly,
  };
}
