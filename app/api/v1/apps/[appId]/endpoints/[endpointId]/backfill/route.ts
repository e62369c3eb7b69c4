import { route } from '@/lib/api/route';
import { backfillEndpoint } from '@/lib/jobs/backfill-endpoint';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.backfillEndpoint, ({ params, body }) => backfillEndpoint({ ...params, ...body }));
