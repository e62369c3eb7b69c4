import { route } from '@/lib/api/route';
import { authOperations } from '@/lib/auth/auth-operations';
import { currentSession } from '@/lib/auth/current-session';

export const runtime = 'nodejs';

export const GET = route(authOperations.getSession, ({ request }) => currentSession(request));
