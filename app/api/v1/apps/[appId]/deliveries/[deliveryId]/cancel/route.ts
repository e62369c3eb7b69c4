import { route } from '@/lib/http/route';
import { cancelDelivery } from '@/lib/domain/deliveries/cancel-delivery';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.cancelDelivery, ({ params }) => cancelDelivery(params));
