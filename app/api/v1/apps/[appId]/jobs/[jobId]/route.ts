import { route } from '@/lib/http/route';
import { getJob } from '@/lib/domain/jobs/get-job';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getJob, ({ params }) => getJob(params));
