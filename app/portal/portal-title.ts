import type { Metadata } from 'next';
import { portalSessionOfRequest } from './portal-session-of-request';

/**
 * A portal page's (or, without one, the portal's own) browser-tab title in the operator's words: "Endpoints · Acme Webhooks" with
 * branding, "Endpoints · Webhooks" without, never "Hookline" (the customer does not know that name).
 * Absolute, because a layout's title template does not reach the page of its own segment
 * (app/portal/page.tsx got the root's "· Hookline").
 */
export async function portalTitle(page?: string): Promise<Metadata> {
  const brand = (await portalSessionOfRequest())?.branding.name ?? 'Webhooks';
  return { title: { absolute: page ? `${page} · ${brand}` : brand } };
}
