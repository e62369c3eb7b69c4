import { route } from '@/lib/api/route';
import { sendTestMessage } from '@/lib/endpoints/send-test-message';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.sendTestMessage, ({ params, body }) => sendTestMessage({ ...params, ...body }));
