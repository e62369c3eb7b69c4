import { route } from '@/lib/api/route';
import { operations } from '@/lib/openapi/operations';
import { revokePortalSession } from '@/lib/portal/revoke-portal-session';

export const runtime = 'nodejs';

export const DELETE = route(operations.revokePortalSession, ({ params }) => revokePortalSession(params));
