import { cookies } from 'next/headers';
import { cache } from 'react';
import { findPortalSession } from '@/lib/domain/portal/find-portal-session';
import { PORTAL_COOKIE_NAME } from '@/lib/http/portal/portal-cookie';

/** The portal session of the request being rendered, looked up once however many of the layout and
 * page ask (React's per-request cache); null when it ended, which the layout shows instead of the page. */
export const portalSessionOfRequest = cache(async () =>
  findPortalSession((await cookies()).get(PORTAL_COOKIE_NAME)?.value),
);
