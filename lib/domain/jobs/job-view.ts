import type { Job } from '../../generated/prisma/client';
import type { JobKind, JobState } from '../../contract/schemas/jobs';

/** The REST shape of a job row; the cursor and lease stay inside. */
export function jobView(row: Job) {
  return {
    id: row.id,
    appId: row.appId,
    kind: row.kind as JobKind,
    params: (row.params ?? {}) as Record<string, unknown>,
    state: row.state as JobState,
    total: row.total,
    totalIsLowerBound: row.totalIsLowerBound,
    processed: row.processed,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type JobView = ReturnType<typeof jobView>;
