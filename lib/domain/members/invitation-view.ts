import type { Invitation } from '../../generated/prisma/client';

/** An invitation's state is derived, not stored: pending until accepted, revoked or past expires_at. */
export function invitationView(row: Invitation, now = Date.now()) {
  const state = row.acceptedAt
    ? 'accepted'
    : row.revokedAt
      ? 'revoked'
      : row.expiresAt.getTime() <= now
        ? 'expired'
        : 'pending';
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    appIds: row.appIds,
    invitedBy: row.invitedBy,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    state: state as 'pending' | 'accepted' | 'revoked' | 'expired',
  };
}
