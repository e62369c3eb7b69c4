import type { EventType } from '../../generated/prisma/client';
import { exampleFromSchema } from './example-from-schema';

export function eventTypeView(row: EventType) {
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    description: row.description,
    schema: (row.schema ?? null) as Record<string, unknown> | null,
    archived: row.archived,
    example: exampleFromSchema(row.schema),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
