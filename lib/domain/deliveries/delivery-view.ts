import { publicDeliveryId, publicMessageId } from '../../database/ids';
import type { Attempt, Delivery, PrismaClient } from '../../generated/prisma/client';
import { deliveryStateOf } from './delivery-states';
import { FROM_DELIVERY_ROW } from './keep-replayed-successes';

// What a delivery view needs besides the row: the endpoint's URL.
export const deliveryInclude = { endpoint: { select: { url: true } } };

/** A delivery as read, its ids stored (uuid: lib/database/ids.ts); deliveryView shows them public. */
export type DeliveryRow = Delivery & { endpoint: { url: string } };

/**
 * The views of `rows`. A row recorded before migration 20261124100000_success_on_delivery has no
 * duration of its own: its last attempt row's is read, for such rows alone. Read for every row (an
 * include of each delivery's last attempt), it probed every time partition of the attempts for every
 * list page, ~13 index scans for 50 deliveries over a week of daily periods (bench:dashboard's plans),
 * to find durations every delivery written since already carries.
 */
export async function deliveryViews(db: Pick<PrismaClient, 'attempt'>, rows: DeliveryRow[]) {
  const withoutDuration = rows
    .filter((row) => row.lastDurationMs === null && row.attemptCount > 0)
    .map((row) => row.id);
  const lastAttemptMs = new Map<string, number>();
  if (withoutDuration.length > 0) {
    const attempts = await db.attempt.findMany({
      where: { deliveryId: { in: withoutDuration } },
      select: { deliveryId: true, durationMs: true },
      orderBy: { attemptNumber: 'desc' },
    });
    for (const attempt of attempts)
      if (!lastAttemptMs.has(attempt.deliveryId)) lastAttemptMs.set(attempt.deliveryId, attempt.durationMs);
  }
  return rows.map((row) => deliveryView(row, lastAttemptMs.get(row.id)));
}

const FINISHED = new Set(['succeeded', 'dead', 'cancelled']);

/** `lastAttemptMs`: for a row without a duration of its own, its last attempt row's (deliveryViews). */
export function deliveryView(row: DeliveryRow, lastAttemptMs?: number) {
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
    lastDurationMs: row.lastDurationMs ?? lastAttemptMs ?? null,
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
