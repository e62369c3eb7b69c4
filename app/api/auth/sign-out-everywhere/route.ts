import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { signOutEverywhereResponse } from '@/lib/http/auth/sign-out-response';
import { signedInMember } from '@/lib/http/auth/signed-in-member';

export const runtime = 'nodejs';

export const POST = route(authOperations.signOutEverywhere, ({ request, principal }) =>
  signOutEverywhereResponse(request, signedInMember(principal).userId),
);
