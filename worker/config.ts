import type { Config } from '../lib/env';
import type { DeliveryWorkerOptions } from './delivery-worker';

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
    http: {
      timeoutMs: config.HOOKLINE_DELIVERY_TIMEOUT_MS,
      keepBytes: config.HOOKLINE_RESPONSE_KEEP_BYTES,
      drainBytes: config.HOOKLINE_RESPONSE_DRAIN_BYTES,
    },
    addressPolicy: {
      allowLoopback: config.HOOKLINE_ALLOW_LOOPBACK,
      allowPrivate: config.HOOKLINE_ALLOW_PRIVATE_NETWORKS,
    },
  };
}
