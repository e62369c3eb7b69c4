import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { finishSsoResponse } from '@/lib/http/auth/sso-responses';

export const runtime = 'nodejs';

export const GET = route(authOperations.finishSsoSignIn, ({ request, query }) => finishSsoResponse(request, query));
