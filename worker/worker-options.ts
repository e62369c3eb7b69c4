// What a delivery worker is built from (worker/start-worker.ts maps the validated configuration onto
// it) and what it reports when it stops.
import type { TracerProvider } from '@opentelemetry/api';
import type { AddressPolicyOptions } from '../lib/domain/webhooks/address-policy';
import type { Logger } from '../lib/runtime/log';
import type { CircuitSettings } from './circuit-breaker';
import type { Clock } from './clock';
import type { NotRecorded } from './flush';
import type { HttpLimits } from './http-pools';
import type { JobRunnerOptions } from './jobs/job-runner';
import type { RetentionOptions } from './maintenance';
import type { Resolver } from './resolve-and-pin';

export interface DeliveryWorkerOptions {
  connectionString: string;
  workerId?: string;
  /** Deliveries this worker holds at once (claimed and not yet recorded), across all endpoints. */
  concurrency: number;
  batchSize: number;
  leaseSeconds: number;
  pollIntervalMs: number;
  flushIntervalMs: number;
  flushMaxResults: number;
  /**
   * Backpressure: no new claims while this many results wait to be recorded. Bounds how far
   * recording can trail sending, so a slow database slows sending instead of letting leases run out.
   * Default: the larger of the concurrency and two flushes.
   */
  maxUnrecordedResults?: number;
  retrySchedule: readonly number[];
  /** Write an attempt row for successes too, with headers and body (default: failures only). */
  keepSuccessfulAttempts?: boolean;
  /** Whether the worker's commits wait for the WAL flush (worker/worker-connections.ts); default false. */
  synchronousCommit?: boolean;
  /** This worker's rollup rows, 0-1023 (default: drawn at random; migration 20261124152000_rollup_shards). */
  rollupShard?: number;
  http: HttpLimits;
  addressPolicy: AddressPolicyOptions;
  /** The circuit breaker's settings; their defaults live in lib/runtime/env.ts (HOOKLINE_CIRCUIT_*). */
  circuit: CircuitSettings;
  /** Disable an endpoint after a failure streak this long; 0 = never (HOOKLINE_AUTO_DISABLE_AFTER). */
  autoDisableAfterMs: number;
  /** Retention run by one worker once per maintenance interval; null = keep everything. */
  retention?: RetentionOptions | null;
  /** Queue depth sample, gauges and retention; default one minute, 0 = never. */
  maintenanceIntervalMs?: number;
  /** Background jobs (worker/jobs/job-runner.ts): batch settings, or false for a worker that runs none. */
  jobs?: Pick<JobRunnerOptions, 'batchSize' | 'batchPauseMs' | 'pollIntervalMs'> | false;
  /** Serve Prometheus metrics at http://host:port/metrics; null = no server. */
  metricsServer?: { port: number; host: string } | null;
  resolve?: Resolver;
  /** Trace every attempt (attempt-spans.ts) with this provider; absent: no tracing, no SDK loaded. */
  tracerProvider?: TracerProvider | null;
  /** With a tracer provider: send each attempt span's traceparent to the receiver (default true). */
  propagateTraceContext?: boolean;
  log?: Logger;
  userAgent?: string;
  /** The time every part decides by (worker/clock.ts); tests pass a manual one. Default: the real clock. */
  clock?: Clock;
}

export type WorkerState = 'created' | 'running' | 'draining' | 'stopped';

export interface StopSummary {
  /** Deliveries taken (claimed or fanned out) since the start. */
  claimed: number;
  /** Attempts recorded as succeeded, and as failed (retrying or dead). */
  succeeded: number;
  failed: number;
  /** Deliveries given back to the queue without spending an attempt. */
  released: number;
  /** In flight when a forced stop (or the deadline) gave them back; their results were dropped. */
  abandoned: number;
  /** Results never written: the database did not answer before the deadline. Sent again later. */
  unwritten: number;
  /** Results the lease fence refused, by where their deliveries had gone. */
  notRecorded: NotRecorded;
}
