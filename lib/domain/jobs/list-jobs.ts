import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import type { Prisma } from '../../generated/prisma/client';
import type { JobKind, JobState } from '../../contract/schemas/jobs';
import { jobView } from './job-view';

/** The app's jobs, newest first (jobs_app_id_created_at_idx). */
export async function listJobs({
  appId,
  state,
  kind,
  limit,
  cursor,
}: {
  appId: string;
  state?: JobState;
  kind?: JobKind;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  const prisma = await readPrisma();
  const where: Prisma.JobWhereInput = { appId, state, kind };
  const page = await findPage({ where, cursor, limit }, (query) => prisma.job.findMany(query));
  return { data: page.data.map(jobView), nextCursor: page.nextCursor };
}
