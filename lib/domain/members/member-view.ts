import type { AdminUser, Invitation } from '../../generated/prisma/client';

export function memberView(row: AdminUser) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    appIds: row.appIds,
    totpEnabled: row.totpEnabledAt !== null,
    createdAt: row.createdAt,
  };
}

export type Member = ReturnType<typeof memberView>;

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
