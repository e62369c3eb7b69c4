// Runs every queued job to its end with the workers' real job runner (worker/jobs/job-runner.ts), for
// API tests that start a job over REST and then look at what it changed.
import { JobRunner } from '../../../worker/jobs/job-runner';
import { testLogger } from '../../support/worker';

export async function runQueuedJobs(connectionString: string): Promise<void> {
  const runner = new JobRunner({ connectionString, workerId: 'api-test-runner', log: testLogger() });
  try {
    await runner.runUntilIdle();
  } finally {
    await runner.stop();
  }
}
