import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { revokePortalSession } from '@/lib/domain/portal/revoke-portal-session';

export const runtime = 'nodejs';

export const DELETE = route(operations.revokePortalSession, ({ params }) => revokePortalSession(params));
