import { route } from '@/lib/http/route';
import { enableEndpoint } from '@/lib/domain/endpoints/enable-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.enableEndpoint, ({ params }) => enableEndpoint(params));
