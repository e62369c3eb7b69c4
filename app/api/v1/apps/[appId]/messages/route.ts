import { idempotencyKeyOf } from '@/lib/http/idempotency-key';
import { route } from '@/lib/http/route';
import { traceContextOfRequest } from '@/lib/http/trace-context';
import { createMessage } from '@/lib/domain/messages/create-message';
import { listMessages } from '@/lib/domain/messages/list-messages';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listMessages, ({ params, query }) => listMessages({ ...params, ...query }));
export const POST = route(operations.createMessage, ({ params, body, request }) =>
  createMessage({
    ...params,
    ...body,
    idempotencyKey: idempotencyKeyOf(request),
    traceContext: traceContextOfRequest(request),
  }),
);
