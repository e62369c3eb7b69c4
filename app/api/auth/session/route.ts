import { route } from '@/lib/http/route';
import { authOperations } from '@/lib/contract/auth-operations';
import { currentSession } from '@/lib/http/auth/current-session';

export const runtime = 'nodejs';

export const GET = route(authOperations.getSession, ({ request }) => currentSession(request));
