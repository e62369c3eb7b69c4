import type { Message } from '../../generated/prisma/client';

export function messageView(row: Message) {
  return {
    id: row.id,
    appId: row.appId,
    eventType: row.eventType,
    payload: row.payload,
    idempotencyKey: row.idempotencyKey,
    createdAt: row.createdAt,
  };
}
