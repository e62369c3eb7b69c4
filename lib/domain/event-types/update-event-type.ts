import { getPrisma } from '../../database/db';
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
  const { count } = await prisma.eventType.updateMany({
    where: { appId, name },
    data: {
      description: changes.description,
      schema: changes.schema === undefined ? undefined : ((changes.schema ?? Prisma.DbNull) as Prisma.InputJsonValue),
      archived: changes.archived,
      updatedAt: new Date(),
    },
  });
  if (count === 0) throw notFound('Event type', name);
  return eventTypeView(await prisma.eventType.findUniqueOrThrow({ where: { appId_name: { appId, name } } }));
}
