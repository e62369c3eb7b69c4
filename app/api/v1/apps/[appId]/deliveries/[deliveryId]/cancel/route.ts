import { route } from '@/lib/api/route';
import { cancelDelivery } from '@/lib/deliveries/cancel-delivery';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.cancelDelivery, ({ params }) => cancelDelivery(params));
