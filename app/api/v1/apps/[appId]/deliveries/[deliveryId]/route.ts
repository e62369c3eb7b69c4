import { route } from '@/lib/api/route';
import { getDelivery } from '@/lib/deliveries/get-delivery';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getDelivery, ({ params }) => getDelivery(params));
