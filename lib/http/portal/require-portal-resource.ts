import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { DomainError } from '../../domain/errors';
import { findPortalSession } from '../../domain/portal/find-portal-session';
import { pathId } from '../../contract/schemas/common';
import { stringProblem } from '../read-json-body';
import { PORTAL_COOKIE_NAME } from './portal-cookie';

/**
 * For a portal page about one resource: the not-found page with a real 404 status when the session's
 * app has no resource with this id (another app's included), as the portal's API answers. The page
 * itself renders in the browser, so without this check every id got a 200 page saying "not found".
 * Without a live session it does nothing: the portal's layout shows the ended session instead.
 */
export async function requirePortalResource(
  id: string,
  find: (appId: string, id: string) => Promise<unknown>,
): Promise<void> {
  const session = await findPortalSession((await cookies()).get(PORTAL_COOKIE_NAME)?.value);
  if (!session) return;
  // What route() refuses as a path id before any query: too long, or text Postgres cannot take.
  if (!pathId.safeParse(id).success || stringProblem(id)) notFound();
  try {
    await find(session.appId, id);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') notFound();
    throw error;
  }
}
