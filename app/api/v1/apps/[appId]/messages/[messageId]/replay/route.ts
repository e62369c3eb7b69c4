import { route } from '@/lib/api/route';
import { replayMessage } from '@/lib/messages/replay-message';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayMessage, ({ params }) => replayMessage(params));
