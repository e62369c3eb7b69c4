import { requireApp } from '../apps/require-app';
import { getPrisma } from '../../database/db';
import { publicMessageId, storedMessageId } from '../../database/ids';
import type { Prisma } from '../../generated/prisma/client';
import { DomainError, invalid } from '../errors';
import { messageView } from './message-view';
import type { TraceContext } from './trace-context';

/**
 * The REST way in. Goes through hookline.send, the same function SQL callers use, so the two cannot
 * differ in what they record. With an idempotency key already used by this app, the first message is
 * answered and nothing is recorded; a retry with the same key but another event type or payload is a
 * client bug, refused (idempotency_key_reused) instead of silently returning the first message.
 * A trace context (the request's W3C traceparent) is kept with the message for the worker's attempt
 * spans; it does not take part in idempotency, as a retry usually carries another span's.
 */
export async function createMessage({
  appId,
  eventType,
  payload,
  idempotencyKey,
  traceContext = null,
}: {
  appId: string;
  eventType: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string;
  traceContext?: TraceContext | null;
}) {
  await requireApp(appId);
  const prisma = getPrisma();
  const json = JSON.stringify(payload);

  // A retry is answered before the event type is checked: the first request succeeded, so its retry
  // must too, even if the event type was archived or deleted in between.
  if (idempotencyKey !== undefined) {
    const key = await prisma.idempotencyKey.findUnique({ where: { appId_idempotencyKey: { appId, idempotencyKey } } });
    const earlier = key && (await prisma.message.findUnique({ where: { appId_id: { appId, id: key.messageId } } }));
    if (earlier) {
      await assertSameRequest(appId, publicMessageId(earlier.id), eventType, json);
      return messageView(earlier);
    }
  }

  const type = await prisma.eventType.findUnique({ where: { appId_name: { appId, name: eventType } } });
  if (!type)
    throw invalid('eventType', `event type ${JSON.stringify(eventType)} does not exist in this app; create it first`);
  if (type.archived) throw invalid('eventType', `event type ${JSON.stringify(eventType)} is archived`);

  // hookline.send answers the message's public id.
  let messageId: string;
  try {
    const send = async (db: Prisma.TransactionClient) => {
      const [sent] = await db.$queryRaw<{ id: string }[]>`
        SELECT hookline.send(${appId}, ${eventType}, ${json}::jsonb, ${idempotencyKey ?? null}::text) AS id`;
      return sent!.id;
    };
    // hookline.send keeps its signature: the SQL producers' hot path pays nothing for tracing. A traced
    // send writes its context in the same transaction, so no worker fans the message out before it is
    // there, at the cost of one in-place update of the row just written (an untraced send stays one
    // statement). `traceparent IS NULL`: a send that lost an idempotency race answers the winner's
    // message, whose context stays the winner's.
    messageId = traceContext
      ? await prisma.$transaction(async (tx) => {
          const id = await send(tx);
          await tx.$executeRaw`
            UPDATE hookline.messages SET traceparent = ${traceContext.traceparent}, tracestate = ${traceContext.tracestate}
             WHERE app_id = ${appId} AND id = ${storedMessageId(id)}::uuid AND traceparent IS NULL`;
          return id;
        })
      : await send(prisma);
  } catch (error) {
    // The event type was deleted or archived between the check above and the send.
    const reason = /hookline\.send: ([^\n"]+)/.exec(error instanceof Error ? error.message : '')?.[1];
    if (reason) throw invalid('eventType', reason);
    throw error;
  }
  // A concurrent request with the same key may have won the race since the lookup above; hookline.send
  // then returned its message.
  if (idempotencyKey !== undefined) await assertSameRequest(appId, messageId, eventType, json);
  return messageView(
    await prisma.message.findUniqueOrThrow({ where: { appId_id: { appId, id: storedMessageId(messageId)! } } }),
  );
}

/** `messageId`: the public id, which the error names. */
async function assertSameRequest(appId: string, messageId: string, eventType: string, json: string): Promise<void> {
  // jsonb equality ignores key order and whitespace, as a retry's re-serialised body may differ in both.
  const [same] = await getPrisma().$queryRaw<{ same_body: boolean }[]>`
    SELECT (event_type = ${eventType} AND payload = ${json}::jsonb) AS same_body
      FROM hookline.messages WHERE app_id = ${appId} AND id = ${storedMessageId(messageId)}::uuid`;
  if (!same?.same_body) {
    throw new DomainError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different event type or payload; use a new key for a new message',
      { messageId },
    );
  }
}
