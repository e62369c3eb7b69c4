// A standalone delivery worker: `npm run worker` (DATABASE_URL required). Run as many as you like,
// on as many machines as you like; they share the queue through FOR UPDATE SKIP LOCKED.
import { ConfigError, loadConfig } from '../lib/env';
import { createLogger } from '../lib/log';
import { workerOptionsFromConfig } from './config';
import { DeliveryWorker } from './delivery-worker';
import { stopOnSignals } from './shutdown';

const log = createLogger({ component: 'worker-main' });

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL must be set for a standalone worker']);
  const worker = new DeliveryWorker({ ...workerOptionsFromConfig(config, config.DATABASE_URL), log });
  await worker.start();
  stopOnSignals([worker], log, { deadlineMs: 10_000, onStopped: () => process.exit(0) });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else log.error('worker failed to start', { error });
  process.exit(1);
});
