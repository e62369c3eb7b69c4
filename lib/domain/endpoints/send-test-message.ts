import { getPrisma } from '../../database/db';
import { messageView } from '../messages/message-view';
import { findEndpoint } from './find-endpoint';

export const TEST_EVENT_TYPE = 'hookline.test';

/**
 * Records a message with one delivery, to this endpoint only, whatever its filter or enabled state
 * (testing an endpoint before enabling it is the point). Bypasses hookline.send, which fans out to
 * every subscribed endpoint; the event type need not exist.
 */
export async function sendTestMessage({
  appId,
  endpointId,
  eventType,
}: {
  appId: string;
  endpointId: string;
  eventType?: string;
}) {
  await findEndpoint(appId, endpointId);
  const type = eventType ?? TEST_EVENT_TYPE;
  const message = await getPrisma().$transaction(async (tx) => {
    const created = await tx.message.create({
      data: {
        appId,
        eventType: type,
        payload: {
          type,
          test: true,
          endpointId,
          sentAt: new Date().toISOString(),
          message: 'Test event sent from Hookline',
        },
      },
    });
    const now = new Date();
    // The delivery's id carries its message's time, so both land in one time partition (both uuid:
    // migration 20261208090000_ids_as_uuid).
    const [{ id }] = await tx.$queryRaw<[{ id: string }]>`SELECT hookline.new_uuid(${created.id}::uuid)::text AS id`;
    await tx.delivery.create({
      data: { id, appId, messageId: created.id, endpointId, eventType: type, nextAttemptAt: now, claimableAt: now },
    });
    return created;
  });
  return messageView(message);
}
