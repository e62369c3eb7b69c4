import { getPrisma } from '../../database/db';
import { storedDeliveryId } from '../../database/ids';
import { notFound } from '../errors';
import { effectiveRetryPolicy } from '../endpoints/retry-policy';
import { messageView } from '../messages/message-view';
import { hasPayloadTemplate } from '../operational-events/has-payload-template';
import { attemptView, deliveryInclude, deliveryView } from './delivery-view';
import { explainWait } from './explain-wait';
import { firstAttemptInFlight } from './first-attempts-in-flight';
import { rebuildRequestBody } from './rebuild-request-body';
import { successAttemptFromDelivery } from './success-attempt';

const endpointSelect = {
  url: true,
  method: true,
  headers: true,
  implicit: true,
  enabled: true,
  disabledReason: true,
  circuitState: true,
  circuitOpenUntil: true,
  retryScheduleMs: true,
  timeoutMs: true,
  app: { select: { retryScheduleMs: true, timeoutMs: true } },
} as const;

/** A first attempt in flight has no row yet (first-attempts-in-flight.ts): its page shows the row it will be. */
async function inFlightWithIncludes(appId: string, deliveryId: string) {
  const prisma = getPrisma();
  const inFlight = await firstAttemptInFlight(prisma, appId, deliveryId);
  if (!inFlight) return null;
  const [endpoint, message] = await Promise.all([
    prisma.endpoint.findUnique({ where: { id: inFlight.endpointId }, select: endpointSelect }),
    prisma.message.findUnique({ where: { appId_id: { appId, id: inFlight.messageId } } }),
  ]);
  if (!endpoint || !message) return null;
  return { ...inFlight, endpoint, message };
}

export async function getDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  // Not a delivery's id: no delivery has it (lib/database/ids.ts).
  const storedId = storedDeliveryId(deliveryId);
  if (storedId === null) throw notFound('Delivery', deliveryId);
  const written = () =>
    prisma.delivery.findFirst({
      where: { id: storedId, appId },
      include: { ...deliveryInclude, endpoint: { select: endpointSelect }, message: true },
    });
  // Read again after the first attempts in flight: one whose outcome was written between the two reads
  // is in neither.
  const row = (await written()) ?? (await inFlightWithIncludes(appId, deliveryId)) ?? (await written());
  if (!row) throw notFound('Delivery', deliveryId);
  const [payload] = await prisma.$queryRaw<{ text: string }[]>`
    SELECT payload::text AS text FROM hookline.messages WHERE id = ${row.messageId}::uuid AND app_id = ${appId}`;
  const attempts = await prisma.attempt.findMany({
    where: { deliveryId: storedId, appId },
    orderBy: [{ attemptNumber: 'asc' }, { startedAt: 'asc' }],
  });
  // A delivery recorded before its duration was kept on its row: its last attempt row's.
  const view = deliveryView(row, attempts.at(-1)?.durationMs);
  const wait = explainWait({
    state: view.state,
    attemptCount: row.attemptCount,
    nextAttemptAt: view.nextAttemptAt,
    endpoint: row.endpoint,
    // The schedule this delivery's endpoint follows now (its own, its app's or the deployment's):
    // the worker decides each retry with the endpoint's current policy.
    maxAttempts: effectiveRetryPolicy(row.endpoint, row.endpoint.app).retryScheduleMs.length,
  });
  const request = {
    method: row.endpoint.method as 'POST' | 'GET' | 'DELETE',
    url: row.endpoint.url,
    body: rebuildRequestBody({
      eventType: row.message.eventType,
      createdAt: row.message.createdAt,
      payloadText: payload?.text ?? 'null',
      // A templated operational endpoint is sent the rendered payload alone, as an implicit one.
      implicit: row.endpoint.implicit || (await hasPayloadTemplate(appId, row.endpointId)),
      method: row.endpoint.method,
    }),
  };
  const log = await Promise.all(
    attempts.map(async (attempt) => {
      const view = attemptView(attempt);
      if (!view.keptOnDelivery) return view;
      // A success a replay moved off its delivery row: its request headers rebuilt as below.
      const rebuilt = await successAttemptFromDelivery({
        ...row,
        attemptCount: attempt.attemptNumber,
        lastAttemptAt: attempt.startedAt,
        lastStatusCode: attempt.statusCode,
        lastDurationMs: attempt.durationMs,
        requestBody: request.body,
        endpointHeaders: row.endpoint.headers,
      });
      return { ...rebuilt, id: attempt.id };
    }),
  );
  // A success without its own row (the default, HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS) closes the log
  // from what its delivery row recorded.
  if (row.state === 'succeeded' && row.lastAttemptAt && !attempts.some((a) => a.attemptNumber === row.attemptCount)) {
    log.push(
      await successAttemptFromDelivery({
        ...row,
        lastAttemptAt: row.lastAttemptAt,
        requestBody: request.body,
        endpointHeaders: row.endpoint.headers,
      }),
    );
  }
  return { ...view, wait, request, attempts: log, message: messageView(row.message) };
}
