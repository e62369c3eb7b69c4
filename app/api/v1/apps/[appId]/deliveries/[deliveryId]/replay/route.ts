import { route } from '@/lib/api/route';
import { replayDelivery } from '@/lib/deliveries/replay-delivery';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayDelivery, ({ params }) => replayDelivery(params));
