import { route } from '@/lib/api/route';
import { enableEndpoint } from '@/lib/endpoints/enable-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.enableEndpoint, ({ params }) => enableEndpoint(params));
