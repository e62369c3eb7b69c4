import { route } from '@/lib/http/route';
import { operations } from '@/lib/contract/operations';
import { getEndpointStats } from '@/lib/domain/stats/get-endpoint-stats';

export const runtime = 'nodejs';

export const GET = route(operations.getEndpointStats, ({ params, query }) => getEndpointStats({ ...params, ...query }));
