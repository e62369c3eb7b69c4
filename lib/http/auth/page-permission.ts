import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAdminSession, type AdminSessionInfo } from '../../domain/auth/get-admin-session';
import { roleHas, type Permission } from '../../domain/auth/roles';
import { PAGE_PERMISSION } from '../permissions';
import { REQUESTED_PATH_HEADER, signInPathFor } from './requested-path';
import { SESSION_COOKIE_NAME } from './session-cookie';

export type PageAccess =
  { allowed: true; session: AdminSessionInfo } | { allowed: false; session: AdminSessionInfo; permission: Permission };

/**
 * The server-side check of a dashboard page that needs more than reading (PAGE_PERMISSION): the page
 * renders a refusal instead of its content, so nothing it would show reaches a browser whose role may
 * not see it.
 */
export async function pageAccess(path: keyof typeof PAGE_PERMISSION): Promise<PageAccess> {
  const session = await getAdminSession((await cookies()).get(SESSION_COOKIE_NAME)?.value);
  if (!session) redirect(signInPathFor((await headers()).get(REQUESTED_PATH_HEADER)));
  const permission = PAGE_PERMISSION[path];
  return roleHas(session.role, permission) ? { allowed: true, session } : { allowed: false, session, permission };
}
