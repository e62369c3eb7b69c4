import type { ApiKey as ApiKeyRow } from '../../generated/prisma/client';

export function apiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    appId: row.appId,
    prefix: row.prefix,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    createdBy: row.createdBy,
  };
}

export type ApiKey = ReturnType<typeof apiKeyView>;
