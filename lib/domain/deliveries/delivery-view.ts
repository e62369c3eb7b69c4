import { publicDeliveryId, publicMessageId } from '../../database/ids';
import type { Attempt, Delivery } from '../../generated/prisma/client';
import { deliveryStateOf } from './delivery-states';
import { FROM_DELIVERY_ROW } from './keep-replayed-successes';

// What a delivery view needs besides the row: the endpoint's URL and, for rows recorded before
// migration 20261124100000_success_on_delivery put it on the delivery, the last attempt's duration.
export const deliveryInclude = {
  endpoint: { select: { url: true } },
  attempts: { select: { durationMs: true }, orderBy: { attemptNumber: 'desc' as const }, take: 1 },
};

/** A delivery as read, its ids stored (uuid: lib/database/ids.ts); deliveryView shows them public. */
export type DeliveryRow = Delivery & { endpoint: { url: string }; attempts: { durationMs: number }[] };

const FINISHED = new Set(['succeeded', 'dead', 'cancelled']);

export function deliveryView(row: DeliveryRow) {
  return {
    id: publicDeliveryId(row.id),
    appId: row.appId,
    messageId: publicMessageId(row.messageId),
    endpointId: row.endpointId,
    endpointUrl: row.endpoint.url,
    eventType: row.eventType,
    state: deliveryStateOf(row),
    attemptCount: row.attemptCount,
    // A finished delivery has no next attempt, whatever the column still holds.
    nextAttemptAt: FINISHED.has(row.state) ? null : row.nextAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    lastStatusCode: row.lastStatusCode,
    lastErrorClass: row.lastErrorClass,
    lastDurationMs: row.lastDurationMs ?? row.attempts[0]?.durationMs ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface AttemptView {
  /** null: a success kept on its delivery row (lib/domain/deliveries/success-attempt.ts). */
  id: string | null;
  deliveryId: string;
  attemptNumber: number;
  workerId: string | null;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  requestHeaders: Record<string, unknown>;
  responseHeaders: Record<string, unknown> | null;
  responseBody: string | null;
  responseTruncated: boolean;
  keptOnDelivery: boolean;
}

export function attemptView(row: Attempt): AttemptView {
  return {
    id: row.id,
    deliveryId: publicDeliveryId(row.deliveryId),
    attemptNumber: row.attemptNumber,
    workerId: row.workerId,
    startedAt: row.startedAt,
    durationMs: row.durationMs,
    statusCode: row.statusCode,
    errorClass: row.errorClass,
    errorMessage: row.errorMessage,
    requestHeaders: row.requestHeaders as Record<string, unknown>,
    responseHeaders: (row.responseHeaders ?? null) as Record<string, unknown> | null,
    responseBody: row.responseBody,
    responseTruncated: row.responseTruncated,
    // A success written from its delivery row by a replay (keep-replayed-successes.ts).
    keptOnDelivery: row.workerId === FROM_DELIVERY_ROW,
  };
}
