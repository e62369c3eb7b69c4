import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { notFound } from '../errors';

/** Messages already recorded keep their event type name; new sends of it are refused. */
export async function deleteEventType({ appId, name }: { appId: string; name: string }): Promise<void> {
  const count = await getPrisma().$transaction(async (tx) => {
    const { count } = await tx.eventType.deleteMany({ where: { appId, name } });
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: 'event_type.deleted',
        resourceType: 'event_type',
        resourceId: name,
        appId,
        before: { name },
      });
    }
    return count;
  });
  if (count === 0) throw notFound('Event type', name);
}
