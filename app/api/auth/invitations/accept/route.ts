import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { acceptInvitationResponse } from '@/lib/http/auth/accept-invitation-response';

export const runtime = 'nodejs';

export const POST = route(authOperations.acceptInvitation, ({ request, body }) =>
  acceptInvitationResponse(request, body),
);
