import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { signOutResponse } from '@/lib/http/auth/sign-out-response';

export const runtime = 'nodejs';

export const POST = route(authOperations.signOut, ({ request }) => signOutResponse(request));
