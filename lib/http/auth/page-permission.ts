import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAdminSession, type AdminSessionInfo } from '../../domain/auth/get-admin-session';
import { pageRefusal, type Refusal, type RestrictedPage } from '../permissions';
import { REQUESTED_PATH_HEADER, signInPathFor } from './requested-path';
import { SESSION_COOKIE_NAME } from './session-cookie';

export type PageAccess =
  { allowed: true; session: AdminSessionInfo } | { allowed: false; session: AdminSessionInfo; refusal: Refusal };

/**
 * The server-side check of a dashboard page not every member may open (PAGE_OPERATION): the page
 * renders a refusal instead of its content, so nothing it would show reaches a browser whose role, or
 * whose hold on some apps, may not see it.
 */
export async function pageAccess(path: RestrictedPage): Promise<PageAccess> {
  const session = await getAdminSession((await cookies()).get(SESSION_COOKIE_NAME)?.value);
  if (!session) redirect(signInPathFor((await headers()).get(REQUESTED_PATH_HEADER)));
  const refusal = pageRefusal(session, path);
  return refusal ? { allowed: false, session, refusal } : { allowed: true, session };
}
