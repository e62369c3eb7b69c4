import { route } from '@/lib/http/route';
import { getDelivery } from '@/lib/domain/deliveries/get-delivery';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getDelivery, ({ params }) => getDelivery(params));
