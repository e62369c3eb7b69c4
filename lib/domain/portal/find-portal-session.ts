import { hashToken } from '../auth/hash-token';
import { getPrisma } from '../../database/db';

/** How the operator branded the app's portal; null where it did not (lib/contract/schemas/apps.ts). */
export interface PortalBranding {
  name: string | null;
  logoUrl: string | null;
  accentColor: string | null;
}

export interface PortalSessionInfo {
  id: string;
  appId: string;
  appName: string;
  readOnly: boolean;
  expiresAt: Date;
  frameAncestors: string[];
  branding: PortalBranding;
}

/** The live session for a portal token, or null when absent, unknown, expired or revoked. */
export async function findPortalSession(token: string | undefined): Promise<PortalSessionInfo | null> {
  if (!token || token.length > 200) return null;
  const row = await getPrisma().portalSession.findUnique({
    where: { tokenHash: hashToken(token) },
    include: {
      app: {
        select: {
          name: true,
          portalFrameAncestors: true,
          portalName: true,
          portalLogoUrl: true,
          portalAccentColor: true,
        },
      },
    },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return {
    id: row.id,
    appId: row.appId,
    appName: row.app.name,
    readOnly: row.readOnly,
    expiresAt: row.expiresAt,
    frameAncestors: row.app.portalFrameAncestors,
    branding: { name: row.app.portalName, logoUrl: row.app.portalLogoUrl, accentColor: row.app.portalAccentColor },
  };
}
