import { signInResponse } from '@/lib/http/auth/sign-in-response';
import { authOperations } from '@/lib/contract/auth-operations';
import { route } from '@/lib/http/route';

export const runtime = 'nodejs';

export const POST = route(authOperations.signIn, ({ request, body }) => signInResponse(request, body));
