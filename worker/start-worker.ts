// From the validated configuration (lib/runtime/env.ts) to a worker, for worker/main.ts and scripts/start.ts.
import type { Config } from '../lib/runtime/env';
import type { Logger } from '../lib/runtime/log';
import { createPool } from '../lib/database/pg';
import { startTracing, type Tracing } from '../lib/runtime/start-tracing';
import { tracingSettingsFromConfig } from '../lib/runtime/tracing-settings';
import { assertSchemaCurrent } from '../lib/database/schema-version';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker';
import { alertSettingsFromConfig, configureAlerts } from './operations/configure-alerts';

export function workerOptionsFromConfig(config: Config, connectionString: string): DeliveryWorkerOptions {
  return {
    connectionString,
    concurrency: config.HOOKLINE_WORKER_CONCURRENCY,
    batchSize: config.HOOKLINE_WORKER_BATCH_SIZE,
    leaseSeconds: config.HOOKLINE_LEASE_SECONDS,
    pollIntervalMs: config.HOOKLINE_POLL_INTERVAL_MS,
    flushIntervalMs: config.HOOKLINE_FLUSH_INTERVAL_MS,
    flushMaxResults: config.HOOKLINE_FLUSH_MAX_RESULTS,
    retrySchedule: config.HOOKLINE_RETRY_SCHEDULE,
    keepSuccessfulAttempts: config.HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS,
    synchronousCommit: config.HOOKLINE_WORKER_SYNCHRONOUS_COMMIT,
    http: {
      timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
      keepBytes: config.HOOKLINE_RESPONSE_KEEP_BYTES,
      drainBytes: config.HOOKLINE_RESPONSE_DRAIN_BYTES,
    },
    addressPolicy: {
      allowLoopback: config.HOOKLINE_ALLOW_LOOPBACK,
      allowPrivate: config.HOOKLINE_ALLOW_PRIVATE_NETWORKS,
    },
    circuit: {
      failureThreshold: config.HOOKLINE_CIRCUIT_FAILURE_THRESHOLD,
      openBaseMs: config.HOOKLINE_CIRCUIT_OPEN_BASE,
      openMaxMs: config.HOOKLINE_CIRCUIT_OPEN_MAX,
    },
    autoDisableAfterMs: config.HOOKLINE_AUTO_DISABLE_AFTER,
    propagateTraceContext: config.HOOKLINE_PROPAGATE_TRACE_CONTEXT,
    jobs: { batchSize: config.HOOKLINE_JOB_BATCH_SIZE, batchPauseMs: config.HOOKLINE_JOB_BATCH_PAUSE_MS },
    retention: {
      retentionMs: config.HOOKLINE_RETENTION,
      statsRetentionMs: config.HOOKLINE_STATS_RETENTION,
      auditRetentionMs: config.HOOKLINE_AUDIT_RETENTION,
    },
    metricsServer:
      config.HOOKLINE_METRICS_PORT > 0
        ? { port: config.HOOKLINE_METRICS_PORT, host: config.HOOKLINE_METRICS_HOST }
        : null,
  };
}

/**
 * The worker's tracing (service name hookline-worker unless OTEL_SERVICE_NAME), or null when no
 * collector is configured. A provider of its own, not the process's global one: under `npm start` the
 * web server in the same process registers the global one as hookline-web (instrumentation.ts).
 */
export async function startWorkerTracing(config: Config, log?: Logger): Promise<Tracing | null> {
  const settings = tracingSettingsFromConfig(config, 'hookline-worker');
  if (!settings) return null;
  const tracing = await startTracing(settings);
  log?.info('tracing attempts', { serviceName: settings.serviceName, tracesUrl: settings.tracesUrl });
  return tracing;
}

/** Builds and starts a worker in this process; the caller stops it with `worker.stop()`. */
export async function startWorker(options: {
  config: Config;
  connectionString: string;
  log?: Logger;
  tracing?: Tracing | null;
}): Promise<DeliveryWorker> {
  // A worker never migrates: against a schema older or newer than it knows it refuses to start
  // (SchemaVersionError names both versions) instead of writing rows the schema does not mean.
  await checkSchema(options.connectionString);
  await writeAlertSettings(options.config, options.connectionString);
  const worker = new DeliveryWorker({
    ...workerOptionsFromConfig(options.config, options.connectionString),
    log: options.log,
    tracerProvider: options.tracing?.tracerProvider ?? null,
  });
  await worker.start();
  return worker;
}

/** HOOKLINE_ALERT_* and the dashboard's address, into the database where the alerts read them. */
export async function writeAlertSettings(config: Config, connectionString: string): Promise<void> {
  const pool = createPool(connectionString, { max: 1 });
  try {
    await configureAlerts(pool, alertSettingsFromConfig(config));
  } finally {
    await pool.end();
  }
}

/** Throws SchemaVersionError unless the database has exactly the migrations this code knows. */
export async function checkSchema(connectionString: string): Promise<void> {
  const pool = createPool(connectionString, { max: 1 });
  try {
    await assertSchemaCurrent(pool);
  } finally {
    await pool.end();
  }
}
