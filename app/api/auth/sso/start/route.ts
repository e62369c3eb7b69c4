import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { startSsoResponse } from '@/lib/http/auth/sso-responses';

export const runtime = 'nodejs';

export const GET = route(authOperations.startSsoSignIn, ({ request, query }) => startSsoResponse(request, query));
