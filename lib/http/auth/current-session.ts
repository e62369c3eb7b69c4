import { unauthorized } from '../http-error';
import { getAdminSession } from '../../domain/auth/get-admin-session';
import { ROLE_PERMISSIONS } from '../../domain/auth/roles';
import { readSessionCookie } from './session-cookie';

export async function currentSession(request: Request) {
  const session = await getAdminSession(readSessionCookie(request.headers.get('cookie')));
  if (!session) throw unauthorized('Not signed in');
  return {
    user: {
      id: session.userId,
      email: session.email,
      role: session.role,
      appIds: session.appIds,
      totpEnabled: session.totpEnabled,
    },
    permissions: [...ROLE_PERMISSIONS[session.role]],
  };
}
