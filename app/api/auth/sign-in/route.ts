import { signInResponse } from '@/lib/auth/sign-in-response';
import { authOperations } from '@/lib/auth/auth-operations';
import { route } from '@/lib/api/route';

export const runtime = 'nodejs';

export const POST = route(authOperations.signIn, ({ request, body }) => signInResponse(request, body));
