import { route } from '@/lib/api/route';
import { createJob } from '@/lib/jobs/create-job';
import { listJobs } from '@/lib/jobs/list-jobs';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listJobs, ({ params, query }) => listJobs({ ...params, ...query }));
export const POST = route(operations.createJob, ({ params, body }) => createJob({ ...params, request: body }));
