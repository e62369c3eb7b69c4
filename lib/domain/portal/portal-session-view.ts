import type { PortalSession } from '../../generated/prisma/client';

export type PortalSessionStatus = 'active' | 'expired' | 'revoked';

export function portalSessionStatus(
  row: Pick<PortalSession, 'expiresAt' | 'revokedAt'>,
  now = Date.now(),
): PortalSessionStatus {
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now ? 'expired' : 'active';
}

/** What the operator sees of a session: never the token (only its hash is stored). */
export function portalSessionView(row: PortalSession) {
  return {
    id: row.id,
    appId: row.appId,
    readOnly: row.readOnly,
    status: portalSessionStatus(row),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}
