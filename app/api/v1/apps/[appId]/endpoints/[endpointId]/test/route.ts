import { route } from '@/lib/http/route';
import { sendTestMessage } from '@/lib/domain/endpoints/send-test-message';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.sendTestMessage, ({ params, body }) => sendTestMessage({ ...params, ...body }));
