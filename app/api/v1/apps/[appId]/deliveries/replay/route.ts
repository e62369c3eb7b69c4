import { route } from '@/lib/http/route';
import { replayDeliverySelection } from '@/lib/domain/deliveries/replay-delivery-selection';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.replayDeliveries, ({ params, body }) =>
  replayDeliverySelection({ ...params, selection: body }),
);
