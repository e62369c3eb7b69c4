import { route } from '@/lib/api/route';
import { authOperations } from '@/lib/auth/auth-operations';
import { signOutResponse } from '@/lib/auth/sign-out-response';

export const runtime = 'nodejs';

export const POST = route(authOperations.signOut, ({ request }) => signOutResponse(request));
