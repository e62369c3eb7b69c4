import { requireApp } from '../apps/require-app';
import { recordAuditEvent } from '../audit/record-audit-event';
import { getPrisma } from '../../database/db';
import { DomainError } from '../errors';
import { Prisma } from '../../generated/prisma/client';
import { eventTypeView } from './event-type-view';

export async function createEventType({
  appId,
  name,
  description,
  schema,
  archived,
}: {
  appId: string;
  name: string;
  description?: string;
  schema?: Record<string, unknown> | null;
  archived?: boolean;
}) {
  await requireApp(appId);
  try {
    const row = await getPrisma().$transaction(async (tx) => {
      const created = await tx.eventType.create({
        data: {
          appId,
          name,
          description: description ?? '',
          schema: (schema ?? Prisma.DbNull) as Prisma.InputJsonValue,
          archived: archived ?? false,
        },
      });
      const after = { name, description: created.description, schema: created.schema, archived: created.archived };
      await recordAuditEvent(tx, {
        action: 'event_type.created',
        resourceType: 'event_type',
        resourceId: name,
        appId,
        after,
      });
      return created;
    });
    return eventTypeView(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DomainError('event_type_exists', `Event type ${JSON.stringify(name)} already exists in this app`);
    }
    throw error;
  }
}
