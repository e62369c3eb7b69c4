import { route } from '@/lib/api/route';
import { replayDeliverySelection } from '@/lib/deliveries/replay-delivery-selection';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayDeliveries, ({ params, body }) =>
  replayDeliverySelection({ ...params, selection: body }));
