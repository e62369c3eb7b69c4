import { route } from '@/lib/api/route';
import { cancelJob } from '@/lib/jobs/cancel-job';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const POST = route(operations.cancelJob, ({ params }) => cancelJob(params));
