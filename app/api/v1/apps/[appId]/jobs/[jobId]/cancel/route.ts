import { route } from '@/lib/http/route';
import { cancelJob } from '@/lib/domain/jobs/cancel-job';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const POST = route(operations.cancelJob, ({ params }) => cancelJob(params));
