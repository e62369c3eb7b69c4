import { getPrisma, type PrismaClient } from '../../database/db';
import { getApiSettings } from '../../runtime/api-settings';
import { hashToken } from './hash-token';
import { isRole, type Role } from './roles';

export interface AdminSessionInfo {
  sessionId: string;
  userId: string;
  email: string;
  role: Role;
  /** The apps the member is held to; empty: every app. */
  appIds: string[];
  totpEnabled: boolean;
}

// last_seen_at only needs minute resolution to enforce an idle lifetime measured in hours, so it is
// written at most once a minute per session instead of once per request (a live dashboard page makes
// several requests every few seconds).
const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * The signed-in member for a session cookie value, or null when absent, unknown, revoked, past its
 * absolute lifetime (expires_at) or idle for longer than HOOKLINE_SESSION_IDLE_TIMEOUT.
 */
export async function getAdminSession(
  token: string | undefined,
  { prisma = getPrisma(), now = Date.now() }: { prisma?: PrismaClient; now?: number } = {},
): Promise<AdminSessionInfo | null> {
  if (!token || token.length > 200) return null;
  const session = await prisma.adminSession.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { user: { select: { id: true, email: true, role: true, appIds: true, totpEnabledAt: true } } },
  });
  if (!session || session.expiresAt.getTime() <= now) return null;
  if (session.lastSeenAt.getTime() + getApiSettings().sessionIdleTimeoutMs <= now) return null;
  if (now - session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await prisma.adminSession.updateMany({
      where: { id: session.id, lastSeenAt: { lt: new Date(now - LAST_SEEN_RESOLUTION_MS) } },
      data: { lastSeenAt: new Date(now) },
    });
  }
  const role = session.user.role;
  return {
    sessionId: session.id,
    userId: session.user.id,
    email: session.user.email,
    // The column's CHECK allows only the four roles; an unknown value would be a bug, read as the least.
    role: isRole(role) ? role : 'viewer',
    appIds: session.user.appIds,
    totpEnabled: session.user.totpEnabledAt !== null,
  };
}
