import { hashToken } from '../auth/hash-token';
import { getPrisma } from '../../database/db';

export interface PortalSessionInfo {
  id: string;
  appId: string;
  appName: string;
  readOnly: boolean;
  expiresAt: Date;
  frameAncestors: string[];
}

/** The live session for a portal token, or null when absent, unknown, expired or revoked. */
export async function findPortalSession(token: string | undefined): Promise<PortalSessionInfo | null> {
  if (!token || token.length > 200) return null;
  const row = await getPrisma().portalSession.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { app: { select: { name: true, portalFrameAncestors: true } } },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return {
    id: row.id,
    appId: row.appId,
    appName: row.app.name,
    readOnly: row.readOnly,
    expiresAt: row.expiresAt,
    frameAncestors: row.app.portalFrameAncestors,
  };
}
