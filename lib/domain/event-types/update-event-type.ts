import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';
import { Prisma } from '../../generated/prisma/client';
import { eventTypeView } from './event-type-view';

export async function updateEventType({
  appId,
  name,
  changes,
}: {
  appId: string;
  name: string;
  changes: { description?: string; schema?: Record<string, unknown> | null; archived?: boolean };
}) {
  const prisma = getPrisma();
  const updated = await prisma.$transaction(async (tx) => {
    const before = await tx.eventType.findUnique({ where: { appId_name: { appId, name } } });
    if (!before) return null;
    const after = await tx.eventType.update({
      where: { appId_name: { appId, name } },
      data: {
        description: changes.description,
        schema: changes.schema === undefined ? undefined : ((changes.schema ?? Prisma.DbNull) as Prisma.InputJsonValue),
        archived: changes.archived,
        updatedAt: new Date(),
      },
    });
    const fields = (row: typeof after) => ({
      description: row.description,
      schema: row.schema,
      archived: row.archived,
    });
    await recordAuditEvent(tx, {
      action: 'event_type.updated',
      resourceType: 'event_type',
      resourceId: name,
      appId,
      before: fields(before),
      after: fields(after),
    });
    return after;
  });
  if (!updated) throw notFound('Event type', name);
  return eventTypeView(updated);
}
