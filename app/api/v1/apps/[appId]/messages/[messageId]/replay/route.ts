import { route } from '@/lib/http/route';
import { replayMessage } from '@/lib/domain/messages/replay-message';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayMessage, ({ params }) => replayMessage(params));
