import type { AdminUser } from '../../generated/prisma/client';

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
