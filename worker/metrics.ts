// Prometheus metrics of one worker process, in the text exposition format (version 0.0.4), served on
// HOOKLINE_METRICS_PORT at /metrics. Hand-rolled: a dozen series do not justify a dependency.
import { createServer, type Server } from 'node:http';
import type { Logger } from '../lib/log';

type Labels = Record<string, string>;

const labelKey = (labels: Labels) =>
  Object.entries(labels)
    .map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',');

class Family {
  readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge',
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  set(labels: Labels, value: number): void {
    this.values.set(labelKey(labels), value);
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    for (const [key, value] of this.values) lines.push(`${this.name}${key ? `{${key}}` : ''} ${value}`);
    return lines.join('\n');
  }
}

class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds in seconds. */
    readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.bounds.length; i++) if (seconds <= this.bounds[i]!) this.counts[i]!++;
  }

  get observations(): number {
    return this.count;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.bounds.forEach((bound, i) => lines.push(`${this.name}_bucket{le="${bound}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${this.sum}`, `${this.name}_count ${this.count}`);
    return lines.join('\n');
  }
}

// The same bounds as hookline.latency_bucket_bounds_ms(), so Prometheus and the dashboard agree.
const ATTEMPT_BOUNDS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATEMENT_BOUNDS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export class WorkerMetrics {
  /** Called before each render, to set gauges read from the worker's state. */
  collect: (() => void) | null = null;
  readonly attempts = new Family(
    'hookline_attempts_total',
    'HTTP attempts by outcome (succeeded, failed) and error class.',
    'counter',
  );
  readonly deliveriesFinished = new Family(
    'hookline_deliveries_finished_total',
    'Deliveries that reached a final state (succeeded, dead) through this worker.',
    'counter',
  );
  readonly released = new Family(
    'hookline_deliveries_released_total',
    'Claimed deliveries given back without spending an attempt, by reason.',
    'counter',
  );
  readonly lostLeases = new Family(
    'hookline_results_fenced_total',
    'Attempt results not recorded because the lease had passed to another worker.',
    'counter',
  );
  readonly queueDepth = new Family(
    'hookline_queue_depth',
    'Deliveries by state at the last once-a-minute sample (all apps).',
    'gauge',
  );
  readonly circuits = new Family('hookline_endpoint_circuits', 'Endpoints by circuit breaker state.', 'gauge');
  readonly inFlight = new Family('hookline_in_flight', 'HTTP attempts in flight in this worker.', 'gauge');
  readonly held = new Family('hookline_held_deliveries', 'Deliveries leased by this worker.', 'gauge');
  readonly unrecorded = new Family(
    'hookline_unrecorded_results',
    'Attempt results sent but not yet recorded in the database (backpressure stops claims at a bound).',
    'gauge',
  );
  readonly backpressureWaits = new Family(
    'hookline_backpressure_waits_total',
    'Times this worker paused claiming because too many results waited to be recorded.',
    'counter',
  );
  readonly fannedOut = new Family(
    'hookline_messages_fanned_out_total',
    'Messages this worker turned into deliveries (one per subscribed endpoint).',
    'counter',
  );
  readonly databaseErrors = new Family(
    'hookline_database_errors_total',
    'Failed worker statements by operation (claim, flush, release, maintenance).',
    'counter',
  );
  readonly attemptDuration = new Histogram(
    'hookline_attempt_duration_seconds',
    'Duration of HTTP attempts.',
    ATTEMPT_BOUNDS,
  );
  readonly claimDuration = new Histogram('hookline_claim_duration_seconds', 'Duration of claim statements.', STATEMENT_BOUNDS);
  readonly flushDuration = new Histogram('hookline_flush_duration_seconds', 'Duration of flush statements.', STATEMENT_BOUNDS);

  render(): string {
    this.collect?.();
    const families = [
      this.attempts,
      this.deliveriesFinished,
      this.released,
      this.lostLeases,
      this.queueDepth,
      this.circuits,
      this.inFlight,
      this.held,
      this.databaseErrors,
      this.attemptDuration,
      this.claimDuration,
      this.flushDuration,
    ];
    return `${families.map((family) => family.render()).join('\n')}\n`;
  }
}

/** Serves `metrics.render()` at /metrics. A port that is taken is logged, not fatal: delivery matters more. */
export async function startMetricsServer(
  metrics: WorkerMetrics,
  options: { port: number; host: string; log: Logger },
): Promise<Server | null> {
  const server = createServer((request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(metrics.render());
  });
  return new Promise((resolve) => {
    server.once('error', (error) => {
      options.log.warn('metrics server could not listen; continuing without /metrics', { error, port: options.port });
      resolve(null);
    });
    server.listen(options.port, options.host, () => resolve(server));
  });
}
