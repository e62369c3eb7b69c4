import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { createPortalSession } from '@/lib/domain/portal/create-portal-session';
import { listPortalSessions } from '@/lib/domain/portal/list-portal-sessions';
import { portalOpenUrl } from '@/lib/http/portal/portal-base-url';

export const runtime = 'nodejs';

export const GET = route(operations.listPortalSessions, ({ params, query }) =>
  listPortalSessions({ ...params, ...query }),
);
export const POST = route(operations.createPortalSession, ({ request, params, body }) =>
  createPortalSession({ ...params, ...body, openUrl: portalOpenUrl(request) }),
);
