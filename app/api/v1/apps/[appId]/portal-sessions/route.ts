import { route } from '@/lib/api/route';
import { operations } from '@/lib/openapi/operations';
import { createPortalSession } from '@/lib/portal/create-portal-session';
import { listPortalSessions } from '@/lib/portal/list-portal-sessions';
import { portalBaseUrl } from '@/lib/portal/portal-base-url';

export const runtime = 'nodejs';

export const GET = route(operations.listPortalSessions, ({ params, query }) =>
  listPortalSessions({ ...params, ...query }),
);
export const POST = route(operations.createPortalSession, ({ request, params, body }) =>
  createPortalSession({ ...params, ...body, baseUrl: portalBaseUrl(request) }),
);
