import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { DomainError, notFound } from '../errors';
import { jobView } from './job-view';

/**
 * Stops a queued or running job. A running batch holds the job's row lock until it commits
 * (worker/sql/job-lock.sql), so this waits for at most that one batch, and the progress it answers
 * is final: the next batch finds the job cancelled and changes nothing. What was done stays done
 * (replayed deliveries stay due; backfilled ones are sent).
 */
export async function cancelJob({ appId, jobId }: { appId: string; jobId: string }) {
  const prisma = getPrisma();
  const now = new Date();
  const count = await prisma.$transaction(async (tx) => {
    const { count } = await tx.job.updateMany({
      where: { id: jobId, appId, state: { in: ['queued', 'running'] } },
      data: { state: 'cancelled', finishedAt: now, leaseOwner: null, leaseExpiresAt: null, updatedAt: now },
    });
    if (count > 0) {
      await recordAuditEvent(tx, {
        action: 'job.cancelled',
        resourceType: 'job',
        resourceId: jobId,
        appId,
        after: { state: 'cancelled' },
      });
    }
    return count;
  });
  const row = await prisma.job.findFirst({ where: { id: jobId, appId } });
  if (!row) throw notFound('Job', jobId);
  if (count === 0 && row.state !== 'cancelled') {
    throw new DomainError('job_finished', `The job already ${row.state}; only queued or running jobs can be cancelled`);
  }
  return jobView(row);
}
