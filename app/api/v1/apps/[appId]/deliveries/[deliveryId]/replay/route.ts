import { route } from '@/lib/http/route';
import { replayDelivery } from '@/lib/domain/deliveries/replay-delivery';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayDelivery, ({ params }) => replayDelivery(params));
