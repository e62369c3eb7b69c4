import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { revokeSessions } from '@/lib/domain/auth/revoke-sessions';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const DELETE = route(authOperations.revokeMySession, ({ principal, params }) =>
  revokeSessions({ userId: signedInMember(principal).userId, sessionId: params.sessionId }),
);
