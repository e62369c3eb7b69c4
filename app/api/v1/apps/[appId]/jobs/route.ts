import { route } from '@/lib/http/route';
import { createJob } from '@/lib/domain/jobs/create-job';
import { listJobs } from '@/lib/domain/jobs/list-jobs';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listJobs, ({ params, query }) => listJobs({ ...params, ...query }));
export const POST = route(operations.createJob, ({ params, body }) => createJob({ ...params, request: body }));
