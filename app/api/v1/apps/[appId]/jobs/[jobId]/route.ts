import { route } from '@/lib/api/route';
import { getJob } from '@/lib/jobs/get-job';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getJob, ({ params }) => getJob(params));
