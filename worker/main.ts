// A standalone delivery worker: `npm run worker` (DATABASE_URL required). Run as many as you like,
// on as many machines as you like; they share the queue through FOR UPDATE SKIP LOCKED.
// SIGTERM/SIGINT drain and exit 0; a second signal forces the stop (in-flight work is released). A
// stop that could not write every result before its deadline exits 1 (worker/shutdown.ts).
import { ConfigError, loadConfig } from '../lib/runtime/env';
import { SchemaVersionError } from '../lib/database/schema-version';
import { createLogger, setLogLevel } from '../lib/runtime/log';
import { generatedKeyWarning, getEncryptionKeys } from '../lib/runtime/secret-box';
import { stopTracing } from '../lib/runtime/start-tracing';
import { startWorker, startWorkerTracing } from './start-worker';
import { stopOnSignals } from './shutdown';

const log = createLogger({ component: 'worker-main' });

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.HOOKLINE_LOG_LEVEL);
  if (!config.DATABASE_URL) throw new ConfigError(['DATABASE_URL must be set for a standalone worker']);
  const keyWarning = generatedKeyWarning(getEncryptionKeys());
  if (keyWarning) log.warn(keyWarning);
  const tracing = await startWorkerTracing(config, log);
  const worker = await startWorker({ config, connectionString: config.DATABASE_URL, log, tracing });
  stopOnSignals([worker], log, {
    deadlineMs: config.HOOKLINE_SHUTDOWN_GRACE,
    // The last attempts' spans leave before the process does.
    onStopped: (exitCode) => void stopTracing(tracing).then(() => process.exit(exitCode)),
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof SchemaVersionError) console.error(error.message);
  else log.error('worker failed to start', { error });
  process.exit(1);
});
