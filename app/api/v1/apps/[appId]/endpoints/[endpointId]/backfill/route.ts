import { route } from '@/lib/http/route';
import { backfillEndpoint } from '@/lib/domain/jobs/backfill-endpoint';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.backfillEndpoint, ({ params, body }) => backfillEndpoint({ ...params, ...body }));
