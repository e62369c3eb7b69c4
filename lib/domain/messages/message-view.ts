import type { Message } from '../../generated/prisma/client';
import { publicMessageId } from '../../database/ids';

export function messageView(row: Message) {
  return {
    id: publicMessageId(row.id),
    appId: row.appId,
    eventType: row.eventType,
    payload: row.payload,
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt,
  };
}
