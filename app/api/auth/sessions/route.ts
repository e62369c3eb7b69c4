import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { listSessions } from '@/lib/domain/auth/list-sessions';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const GET = route(authOperations.listMySessions, ({ principal }) => {
  const member = signedInMember(principal);
  return listSessions({ userId: member.userId, currentSessionId: member.sessionId });
});
