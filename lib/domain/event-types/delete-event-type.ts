import { getPrisma } from '../../database/db';
import { notFound } from '../errors';

/** Messages already recorded keep their event type name; new sends of it are refused. */
export async function deleteEventType({ appId, name }: { appId: string; name: string }): Promise<void> {
  const { count } = await getPrisma().eventType.deleteMany({ where: { appId, name } });
  if (count === 0) throw notFound('Event type', name);
}
