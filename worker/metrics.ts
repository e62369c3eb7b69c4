// Prometheus metrics of one worker process, served on HOOKLINE_METRICS_HOST:HOOKLINE_METRICS_PORT at
// /metrics: Hookline's own series (names and labels unchanged since they were hand-rolled, so
// dashboards and alerts keep working) beside prom-client's default Node process metrics (event-loop
// lag, GC pauses, heap spaces, RSS, open file descriptors).
//
// Each WorkerMetrics has its own Registry, never prom-client's global one: tests run several workers
// in one process, and a global registry would refuse the second worker's metric names.
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../lib/runtime/log';
import { answerHealthProbe, checkReadiness, type HealthProbes } from '../lib/database/health';
import type { WorkerState } from './worker-options';

type Labels = Record<string, string>;

// Labels are put in the declared order, so the exposition reads the same whatever order a caller
// wrote them in (prom-client prints them in the order of the object it was given).
function ordered(names: readonly string[], labels: Labels): Labels {
  const result: Labels = {};
  for (const name of names) if (labels[name] !== undefined) result[name] = labels[name];
  return result;
}

class CounterFamily {
  private readonly counter: Counter<string>;
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly labelNames: readonly string[] = [],
  ) {
    this.counter = new Counter({ name, help, labelNames, registers: [registry] });
  }

  inc(labels: Labels = {}, by = 1): void {
    this.counter.inc(ordered(this.labelNames, labels), by);
  }
}

class GaugeFamily {
  private readonly gauge: Gauge<string>;
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly labelNames: readonly string[] = [],
  ) {
    this.gauge = new Gauge({ name, help, labelNames, registers: [registry] });
  }

  set(labels: Labels, value: number): void {
    this.gauge.set(ordered(this.labelNames, labels), value);
  }

  /** No series at all, until the next set: for a value no longer known. */
  reset(): void {
    this.gauge.reset();
  }
}

class HistogramFamily {
  private readonly histogram: Histogram<string>;
  constructor(registry: Registry, name: string, help: string, buckets: readonly number[]) {
    this.histogram = new Histogram({ name, help, buckets: [...buckets], registers: [registry] });
  }

  /** One observation, in seconds. */
  observe(seconds: number): void {
    this.histogram.observe(seconds);
  }
}

// The same bounds as hookline.latency_bucket_bounds_ms(), so Prometheus and the dashboard agree.
const ATTEMPT_BOUNDS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATEMENT_BOUNDS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export class WorkerMetrics {
  readonly registry = new Registry();
  /** Called before each scrape, to set gauges read from the worker's state. */
  collect: (() => void) | null = null;
  readonly attempts = new CounterFamily(
    this.registry,
    'hookline_attempts_total',
    'HTTP attempts by outcome (succeeded, failed) and error class.',
    ['outcome', 'error_class'],
  );
  readonly deliveriesFinished = new CounterFamily(
    this.registry,
    'hookline_deliveries_finished_total',
    'Deliveries that reached a final state (succeeded, dead) through this worker.',
    ['state'],
  );
  readonly released = new CounterFamily(
    this.registry,
    'hookline_deliveries_released_total',
    'Claimed deliveries given back without spending an attempt, by reason.',
    ['reason'],
  );
  readonly lostLeases = new CounterFamily(
    this.registry,
    'hookline_results_fenced_total',
    'Attempt results not recorded because the lease had passed to another worker.',
  );
  readonly queueDepth = new GaugeFamily(
    this.registry,
    'hookline_queue_depth',
    'Deliveries by state at the last once-a-minute sample (all apps).',
    ['state'],
  );
  readonly circuits = new GaugeFamily(
    this.registry,
    'hookline_endpoint_circuits',
    'Endpoints by circuit breaker state.',
    ['state'],
  );
  readonly periodsPastRetention = new GaugeFamily(
    this.registry,
    'hookline_time_partitions_past_retention',
    'Periods of events older than HOOKLINE_RETENTION still stored because a delivery in them is unfinished.',
  );
  readonly inFlight = new GaugeFamily(this.registry, 'hookline_in_flight', 'HTTP attempts in flight in this worker.');
  readonly held = new GaugeFamily(this.registry, 'hookline_held_deliveries', 'Deliveries leased by this worker.');
  readonly unrecorded = new GaugeFamily(
    this.registry,
    'hookline_unrecorded_results',
    'Attempt results sent but not yet recorded in the database (backpressure stops claims at a bound).',
  );
  readonly backpressureWaits = new CounterFamily(
    this.registry,
    'hookline_backpressure_waits_total',
    'Times this worker paused claiming because too many results waited to be recorded.',
  );
  readonly fannedOut = new CounterFamily(
    this.registry,
    'hookline_messages_fanned_out_total',
    'Messages this worker turned into deliveries (one per subscribed endpoint).',
  );
  readonly databaseErrors = new CounterFamily(
    this.registry,
    'hookline_database_errors_total',
    'Failed worker statements by operation (claim, flush, release, renew; the maintenance chores: time_partitions, retention, queue_depth, gauges, operations, sealing).',
    ['operation'],
  );
  readonly attemptDuration = new HistogramFamily(
    this.registry,
    'hookline_attempt_duration_seconds',
    'Duration of HTTP attempts.',
    ATTEMPT_BOUNDS,
  );
  readonly claimDuration = new HistogramFamily(
    this.registry,
    'hookline_claim_duration_seconds',
    'Duration of claim statements.',
    STATEMENT_BOUNDS,
  );
  readonly flushDuration = new HistogramFamily(
    this.registry,
    'hookline_flush_duration_seconds',
    'Duration of flush statements.',
    STATEMENT_BOUNDS,
  );

  constructor() {
    // process_* and nodejs_* series: CPU, RSS, open and max fds, event-loop lag, GC durations by kind,
    // heap by space. Read at scrape time, except the GC observer and the event-loop delay histogram,
    // which cost nothing measurable between scrapes.
    collectDefaultMetrics({ register: this.registry });
  }

  /** The exposition text (format 0.0.4). */
  async render(): Promise<string> {
    this.collect?.();
    return this.registry.metrics();
  }
}

/** Serves `metrics.render()` at /metrics (and the health probes when given). A port that is taken is logged, not fatal: delivery matters more. */
export async function startMetricsServer(
  metrics: WorkerMetrics,
  options: { port: number; host: string; log: Logger; health?: HealthProbes },
): Promise<Server | null> {
  const server = createServer((request, response) => {
    // /livez and /readyz (lib/database/health.ts): the same port an orchestrator already scrapes.
    if (options.health && answerHealthProbe(request, response, options.health)) return;
    if (request.url !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not found: metrics are at /metrics, health at /livez and /readyz\n');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        options.log.error('rendering /metrics failed', { error });
        response.writeHead(500, { 'content-type': 'text/plain' }).end('rendering metrics failed\n');
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (error) => {
      options.log.warn('metrics server could not listen; continuing without /metrics', { error, port: options.port });
      resolve(null);
    });
    server.listen(options.port, options.host, () => resolve(server));
  });
}

/**
 * A worker's /livez and /readyz: live until stopped; ready while it takes work and its database answers
 * with the schema it knows. Draining is not ready.
 */
export function workerHealth(state: () => WorkerState, db: Parameters<typeof checkReadiness>[0]): HealthProbes {
  return {
    live: () => (state() === 'stopped' ? 'stopped' : null),
    ready: async () =>
      state() === 'running'
        ? checkReadiness(db)
        : { ready: false, database: { ok: true }, schema: null, process: state() },
  };
}
