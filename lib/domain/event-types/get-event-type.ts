import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { eventTypeView } from './event-type-view';

export async function getEventType({ appId, name }: { appId: string; name: string }) {
  const row = await getPrisma().eventType.findUnique({ where: { appId_name: { appId, name } } });
  if (!row) throw notFound('Event type', name);
  return eventTypeView(row);
}
