import { getPrisma } from '../../database/db';
import { publicDeliveryId, publicMessageId } from '../../database/ids';
import { decryptSecret } from '../../runtime/secret-box';
import { signatureHeader } from '../webhooks/sign';
import type { AttemptView } from './delivery-view';

/**
 * A success recorded on its delivery row alone (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS off, the default:
 * an attempt row per success was a third of the WAL), shown as the final attempt of the log. Status,
 * time and duration are the recorded ones. The request headers are rebuilt the way the worker built
 * them (worker/deliver.ts): the id, the timestamp (the attempt's start in whole seconds) and the
 * signatures of the secrets that were valid then, so "copy as curl" still sends a verifiable request;
 * the endpoint's custom headers are today's. The response was not kept, nor the attempt span's
 * traceparent (worker/attempt-spans.ts), which is therefore not shown: no made-up trace id.
 */
export async function successAttemptFromDelivery(delivery: {
  id: string;
  appId: string;
  messageId: string;
  endpointId: string;
  attemptCount: number;
  lastAttemptAt: Date;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  requestBody: string;
  endpointHeaders: unknown;
}): Promise<AttemptView> {
  // The delivery's row has its ids stored (uuid); the headers and the view have them public, as sent.
  const webhookId = publicMessageId(delivery.messageId);
  const timestampSeconds = Math.floor(delivery.lastAttemptAt.getTime() / 1000);
  const secrets = await getPrisma().endpointSecret.findMany({
    where: {
      endpointId: delivery.endpointId,
      appId: delivery.appId,
      // A JavaScript date holds milliseconds, PostgreSQL microseconds: a secret made in the attempt's
      // own millisecond is after the truncated time, and was dropped (a flaky test, not a real case).
      createdAt: { lt: new Date(delivery.lastAttemptAt.getTime() + 1) },
      OR: [{ expiresAt: null }, { expiresAt: { gt: delivery.lastAttemptAt } }],
    },
    orderBy: { createdAt: 'desc' },
    select: { secret: true },
  });
  const custom = Object.fromEntries(
    Object.entries((delivery.endpointHeaders ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name.toLowerCase(),
      String(value),
    ]),
  );
  const requestHeaders: Record<string, string> = {
    ...custom,
    // As the worker: no content type without a body (a GET, or a DELETE without one).
    ...(delivery.requestBody === '' ? {} : { 'content-type': 'application/json' }),
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
  };
  if (secrets.length > 0) {
    requestHeaders['webhook-signature'] = signatureHeader(
      secrets.map((row) => decryptSecret(row.secret)),
      webhookId,
      timestampSeconds,
      delivery.requestBody,
    );
  }
  return {
    id: null,
    deliveryId: publicDeliveryId(delivery.id),
    attemptNumber: delivery.attemptCount,
    workerId: null,
    startedAt: delivery.lastAttemptAt,
    durationMs: delivery.lastDurationMs ?? 0,
    statusCode: delivery.lastStatusCode,
    errorClass: null,
    errorMessage: null,
    requestHeaders,
    responseHeaders: null,
    responseBody: null,
    responseTruncated: false,
    keptOnDelivery: true,
  };
}
