import { hashToken, randomToken } from '../auth/hash-token';
import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma } from '../../database/db';
import { requireApp } from '../apps/require-app';
import { portalSessionView } from './portal-session-view';

// "hlp_" tells a portal token from an API key ("hl_") in a leak report, and lets the log redaction
// (lib/runtime/redact-secrets.ts) find it in any string.
export const PORTAL_TOKEN_PREFIX = 'hlp_';

/**
 * Creates a portal session for one app and returns the URL to open it. The token is in the URL only,
 * once: the database keeps its sha256, and opening the URL trades it for a cookie (app/portal/open).
 */
export async function createPortalSession({
  appId,
  expiresInSeconds,
  readOnly,
  openUrl,
}: {
  appId: string;
  expiresInSeconds: number;
  readOnly: boolean;
  /** Where customers' browsers open the portal (lib/http/portal/portal-base-url.ts); gets the token. */
  openUrl: string;
}) {
  const prisma = getPrisma();
  await requireApp(appId);
  const token = PORTAL_TOKEN_PREFIX + randomToken(32);
  const row = await prisma.$transaction(async (tx) => {
    const session = await tx.portalSession.create({
      data: { appId, readOnly, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + expiresInSeconds * 1000) },
    });
    await recordAuditEvent(tx, {
      action: 'portal_session.created',
      resourceType: 'portal_session',
      resourceId: session.id,
      appId,
      after: { readOnly: session.readOnly, expiresAt: session.expiresAt },
    });
    return session;
  });
  const url = new URL(openUrl);
  url.searchParams.set('token', token);
  return { ...portalSessionView(row), url: url.toString() };
}
