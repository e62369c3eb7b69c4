import { idempotencyKeyOf } from '@/lib/api/idempotency-key';
import { route } from '@/lib/api/route';
import { createMessage } from '@/lib/messages/create-message';
import { listMessages } from '@/lib/messages/list-messages';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listMessages, ({ params, query }) => listMessages({ ...params, ...query }));
export const POST = route(operations.createMessage, ({ params, body, request }) =>
  createMessage({ ...params, ...body, idempotencyKey: idempotencyKeyOf(request) }));
