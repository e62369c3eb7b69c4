import type { EventType } from '../generated/prisma/client';

export function eventTypeView(row: EventType) {
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    description: row.description,
    schema: (row.schema ?? null) as Record<string, unknown> | null,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
