import { getPrisma } from '../../database/db';
import { notFound } from '../errors';
import { jobView } from './job-view';

/** One job of the app, with its progress; another app's job is not_found, as if it did not exist. */
export async function getJob({ appId, jobId }: { appId: string; jobId: string }) {
  const row = await getPrisma().job.findFirst({ where: { id: jobId, appId } });
  if (!row) throw notFound('Job', jobId);
  return jobView(row);
}
