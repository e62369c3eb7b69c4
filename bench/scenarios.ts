// The benchmark's cases. Each runs in a fresh database cloned from the migrated template, against
// the shared loopback receiver, with the workers as child processes, and returns one CaseResult.
//   pg_net:  pgbench (10 clients x 1,000 inserts) into spice_harvests, once without a trigger, then
//            with an AFTER INSERT trigger calling hookline.send or hookline.http_post while a worker
//            delivers live; the pg_net benchmark's setup with Hookline in pg_net's place.
//   latency: the same trigger at a fixed offered rate (pgbench -R), for enqueue-to-delivery latency.
//   drain:   N events queued first, then the workers started: how fast a backlog empties.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { topStatements, type BenchDatabaseServer, type StatementCost } from './bench-database';
import type { BenchReceiver } from './bench-receiver';
import { runPgbench } from './pgbench';
import { watchSockets } from './socket-states';
import { watchWaitEvents, type WaitEventShare } from './wait-events';
import { summarizeCpuProfile, type CpuProfileSummary } from './summarize-cpu-profile';
import { postgresCpuSeconds, startWorkerProcesses } from './worker-processes';

export interface BenchContext {
  server: BenchDatabaseServer;
  receiver: BenchReceiver;
  pgbench: string | null;
  /** Endpoint max_concurrency: the per-worker connection cap of each endpoint. */
  endpointCap: number;
  workerEnv: Record<string, string>;
  /** --no-notify (diagnostic): the deliveries NOTIFY trigger is disabled, workers wake by polling only. */
  notify: boolean;
  /** Set with --profile: CPU profiles of the workers are written under it. */
  profileDir?: string;
  log(line: string): void;
}

export type CaseKind = 'pg_net' | 'latency' | 'drain';

export interface CaseResult {
  name: string;
  kind: CaseKind;
  events: number;
  workers: number;
  endpoints: number;
  endpointCap: number;
  receiverDelayMs: number;
  receiverFailRate: number;
  producer?: { tpsWithoutTrigger?: number; tpsWithTrigger: number; offeredRate?: number; transactions: number };
  /** Enqueue rate while queueing a drain backlog (events/s), for reference. */
  enqueuePerSecond?: number;
  deliveriesPerSecond: number;
  /** Wall time the rate is measured over, in seconds. */
  deliverySeconds: number;
  /** Last delivery minus the moment pgbench finished (pg_net scenario). */
  tailAfterProducerMs?: number;
  /** Worker process started until its first delivery arrived (drain). */
  startToFirstDeliveryMs?: number;
  succeeded: number;
  dead: number;
  unfinished: number;
  successRate: number;
  attempts: number;
  failedAttempts: number;
  duplicates: number;
  connectionsAccepted: number;
  maxOpenConnections: number;
  peakTimeWait: number;
  latencyMs?: { p50: number; p95: number; p99: number; max: number };
  workerCpuSeconds: number;
  workerPeakRssMb: number;
  postgresCpuSeconds: number;
  /** WAL Postgres wrote while the case ran, per delivered event (producer's writes included in live cases). */
  walBytesPerEvent: number;
  benchProcessCpuSeconds: number;
  statements: StatementCost[];
  /** What active Postgres backends waited on while the case ran (sampled). */
  waitEvents: WaitEventShare[];
  cpuProfile?: CpuProfileSummary;
}

const SPICE_TABLE = `
  CREATE TABLE spice_harvests (
    id            bigserial PRIMARY KEY,
    planet        text NOT NULL,
    tonnes        numeric NOT NULL,
    harvested_at  timestamptz NOT NULL DEFAULT now()
  );`;
const SPICE_INSERT = `INSERT INTO spice_harvests (planet, tonnes) VALUES ('Arrakis', random() * 100);\n`;

export type TriggerMode = 'send' | 'http_post';

async function createCaseDatabase(context: BenchContext, name: string): Promise<string> {
  const url = await context.server.create(name);
  if (!context.notify) {
    await withClient(url, (client) => client.query('ALTER TABLE hookline.deliveries DISABLE TRIGGER deliveries_notify'));
  }
  return url;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function createApp(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`INSERT INTO hookline.apps (name) VALUES ('bench') RETURNING id`);
  return rows[0]!.id;
}

async function createEndpoints(
  client: pg.ClientBase,
  appId: string,
  receiverUrl: string,
  count: number,
  cap: number,
): Promise<void> {
  await client.query(
    `WITH endpoints AS (
       INSERT INTO hookline.endpoints (app_id, url, event_types, max_concurrency)
       SELECT $1, $2 || '/e' || i, ARRAY['bench.e' || i], $4 FROM generate_series(0, $3 - 1) AS i
       RETURNING id
     ), types AS (
       INSERT INTO hookline.event_types (app_id, name) SELECT $1, 'bench.e' || i FROM generate_series(0, $3 - 1) AS i
     )
     INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret)
     SELECT $1, id, 'whsec_' || encode(decode(md5(id), 'hex') || decode(md5(id || 'x'), 'hex'), 'base64') FROM endpoints`,
    [appId, receiverUrl, count, cap],
  );
}

/** The pg_net benchmark's trigger, with Hookline where pg_net was. */
function triggerSql(mode: TriggerMode, appId: string | null, url: string): string {
  const call =
    mode === 'send'
      ? `PERFORM hookline.send('${appId}', 'bench.e0', to_jsonb(NEW));`
      : `PERFORM hookline.http_post(url := '${url}', body := to_jsonb(NEW), headers := '{"Content-Type": "application/json"}'::jsonb);`;
  return `
    CREATE FUNCTION spice_harvest_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${call}
      RETURN NEW;
    END $$;
    CREATE TRIGGER spice_harvest_webhook AFTER INSERT ON spice_harvests
      FOR EACH ROW EXECUTE FUNCTION spice_harvest_webhook();`;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

function latencySummary(latencies: Float64Array): CaseResult['latencyMs'] {
  const sorted = latencies.sort();
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

async function waitForRecorded(client: pg.ClientBase, expected: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ done: number }>(
      `SELECT count(*)::int AS done FROM hookline.deliveries WHERE state IN ('succeeded', 'dead')`,
    );
    if (rows[0]!.done >= expected) return;
    if (Date.now() > until)
      throw new Error(`only ${rows[0]!.done} of ${expected} deliveries were recorded as finished`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function walPosition(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

async function walBytesSince(client: pg.ClientBase, since: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS bytes', [since]);
  return Number(rows[0]!.bytes);
}

async function outcome(client: pg.ClientBase) {
  const { rows } = await client.query<{
    succeeded: number;
    dead: number;
    unfinished: number;
    attempts: number;
    failed_attempts: number;
  }>(
    `SELECT (SELECT count(*) FILTER (WHERE state = 'succeeded') FROM hookline.deliveries)::int AS succeeded,
            (SELECT count(*) FILTER (WHERE state = 'dead') FROM hookline.deliveries)::int AS dead,
            (SELECT count(*) FILTER (WHERE state IN ('pending', 'delivering')) FROM hookline.deliveries)::int AS unfinished,
            (SELECT count(*) FROM hookline.attempts)::int AS attempts,
            (SELECT count(*) FILTER (WHERE error_class IS NOT NULL) FROM hookline.attempts)::int AS failed_attempts`,
  );
  return rows[0]!;
}

async function profileOf(dir: string | undefined): Promise<CpuProfileSummary | undefined> {
  if (!dir) return undefined;
  const files = (await readdir(dir).catch(() => [])).filter((file) => file.endsWith('.cpuprofile'));
  return files[0] ? summarizeCpuProfile(join(dir, files[0])) : undefined;
}

interface Measured {
  workers: Awaited<ReturnType<typeof startWorkerProcesses>>;
  profileDir?: string;
}

/** Starts workers for a case; the profile folder is per case so each case's profile is its own. */
async function startWorkers(
  context: BenchContext,
  url: string,
  count: number,
  name: string,
  env: Record<string, string> = {},
) {
  const profileDir = context.profileDir ? join(context.profileDir, name) : undefined;
  const workers = await startWorkerProcesses({
    databaseUrl: url,
    count,
    env: { ...context.workerEnv, ...env },
    cpuProfileDir: profileDir,
  });
  return { workers, profileDir } satisfies Measured;
}

export async function runBaselineProducer(
  context: BenchContext,
  clients: number,
  transactions: number,
): Promise<number> {
  const name = 'bench_pgnet_baseline';
  const url = await context.server.create(name);
  try {
    await withClient(url, (client) => client.query(SPICE_TABLE));
    const run = await runPgbench({
      binary: context.pgbench!,
      databaseUrl: url,
      script: SPICE_INSERT,
      clients,
      threads: 2,
      transactionsPerClient: transactions,
    });
    return run.tps;
  } finally {
    await context.server.drop(name);
  }
}

export interface LiveCaseOptions {
  kind: 'pg_net' | 'latency';
  mode: TriggerMode;
  clients: number;
  /** -t per client, or a rate (-R) for `seconds` (-T). */
  transactionsPerClient?: number;
  rate?: number;
  seconds?: number;
  tpsWithoutTrigger?: number;
}

export async function runLiveCase(context: BenchContext, options: LiveCaseOptions): Promise<CaseResult> {
  const name = `bench_${options.kind}_${options.mode}`;
  const url = await createCaseDatabase(context, name);
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      let appId: string | null = null;
      await client.query(SPICE_TABLE);
      if (options.mode === 'send') {
        appId = await createApp(client);
        await createEndpoints(client, appId, receiver.url, 1, context.endpointCap);
      }
      await client.query(triggerSql(options.mode, appId, `${receiver.url}/e0`));
      const { workers, profileDir } = await startWorkers(context, url, 1, name);
      try {
        receiver.setBehaviour({ delayMs: 0, failRate: 0 });
        receiver.reset();
        const sockets = watchSockets(receiver.port);
        await client.query('SELECT pg_stat_statements_reset()');
        const postgresCpuBefore = await postgresCpuSeconds(context.server.postmasterPid);
        const benchCpuBefore = process.cpuUsage();
        const waits = await watchWaitEvents(url);
        const walBefore = await walPosition(client);
        context.log(`  ${name}: pgbench running`);
        const run = await runPgbench({
          binary: context.pgbench!,
          databaseUrl: url,
          script: SPICE_INSERT,
          clients: options.clients,
          threads: 2,
          transactionsPerClient: options.transactionsPerClient,
          rate: options.rate,
          seconds: options.seconds,
        });
        const expected = run.transactions;
        await receiver.waitForUnique(expected, 120_000);
        await waitForRecorded(client, expected, 60_000);
        const usage = await workers.usage();
        const postgresCpu = (await postgresCpuSeconds(context.server.postmasterPid)) - postgresCpuBefore;
        const benchCpu = process.cpuUsage(benchCpuBefore);
        const walBytes = await walBytesSince(client, walBefore);
        const socketPeaks = await sockets.stop();
        const waitEvents = await waits.stop();
        const statements = await topStatements(client);
        await workers.stop();
        const counts = receiver.counts();
        const result = await outcome(client);
        const { rows } = await client.query<{ first: Date }>(`SELECT min(created_at) AS first FROM hookline.messages`);
        const firstInsertAt = rows[0]!.first.getTime();
        const lastDeliveryAt = counts.lastSuccessAt!;
        const deliverySeconds = (lastDeliveryAt - firstInsertAt) / 1000;
        return {
          name: `${options.kind} (${options.mode === 'send' ? 'hookline.send' : 'hookline.http_post'})`,
          kind: options.kind,
          events: expected,
          workers: 1,
          endpoints: 1,
          endpointCap: options.mode === 'send' ? context.endpointCap : 10,
          receiverDelayMs: 0,
          receiverFailRate: 0,
          producer: {
            tpsWithoutTrigger: options.tpsWithoutTrigger,
            tpsWithTrigger: run.tps,
            offeredRate: options.rate,
            transactions: run.transactions,
          },
          deliveriesPerSecond: Math.round(expected / deliverySeconds),
          deliverySeconds,
          tailAfterProducerMs: lastDeliveryAt - run.finishedAt,
          succeeded: result.succeeded,
          dead: result.dead,
          unfinished: result.unfinished,
          successRate: result.succeeded / expected,
          attempts: result.attempts,
          failedAttempts: result.failed_attempts,
          duplicates: counts.duplicates,
          connectionsAccepted: counts.connections,
          maxOpenConnections: counts.maxOpenConnections,
          peakTimeWait: socketPeaks.peakTimeWait,
          latencyMs: latencySummary(receiver.latencies()),
          workerCpuSeconds: sum(usage.map((entry) => entry.cpuSeconds)),
          workerPeakRssMb: Math.max(...usage.map((entry) => entry.peakRssMb)),
          postgresCpuSeconds: postgresCpu,
          walBytesPerEvent: Math.round(walBytes / expected),
          benchProcessCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
          statements,
          waitEvents,
          cpuProfile: await profileOf(profileDir),
        };
      } finally {
        await workers.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

export interface DrainCaseOptions {
  events: number;
  workers: number;
  endpoints: number;
  delayMs: number;
  failRate: number;
}

// Retries for the failing-receiver case: the default schedule's 5 s and 5 min steps would make a
// 10%-failing run last minutes; ten quick retries end every delivery (0.1^11 = 1e-11 to go dead).
const QUICK_RETRY_SCHEDULE = '0,50ms,100ms,200ms,300ms,500ms,500ms,500ms,500ms,500ms,500ms';

export async function runDrainCase(context: BenchContext, options: DrainCaseOptions): Promise<CaseResult> {
  const label =
    `drain ${formatCount(options.events)} x${options.workers}w ${options.endpoints}ep` +
    `${options.delayMs ? ` ${options.delayMs}ms` : ''}${options.failRate ? ` fail${options.failRate * 100}%` : ''}`;
  const name = `bench_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  const url = await createCaseDatabase(context, name);
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      const appId = await createApp(client);
      await createEndpoints(client, appId, receiver.url, options.endpoints, context.endpointCap);
      context.log(`  ${label}: queueing ${options.events} events`);
      const enqueueStarted = Date.now();
      const chunk = 10_000;
      for (let from = 1; from <= options.events; from += chunk) {
        const to = Math.min(options.events, from + chunk - 1);
        // A payload shaped like a spice_harvests row (~120 bytes), as to_jsonb(NEW) would give.
        await client.query(
          `SELECT count(hookline.send($1, 'bench.e' || (g % $4),
                    jsonb_build_object('id', g, 'planet', 'Arrakis', 'tonnes', g % 1000, 'harvested_at', now())))
             FROM generate_series($2::int, $3::int) AS g`,
          [appId, from, to, options.endpoints],
        );
      }
      const enqueuePerSecond = Math.round(options.events / ((Date.now() - enqueueStarted) / 1000));
      // Autovacuum would otherwise analyse the new rows in the middle of the drain; a deployment
      // that queued a backlog has statistics too.
      await client.query('ANALYZE hookline.deliveries');
      await client.query('ANALYZE hookline.messages');

      receiver.setBehaviour({ delayMs: options.delayMs, failRate: options.failRate });
      receiver.reset();
      const sockets = watchSockets(receiver.port);
      await client.query('SELECT pg_stat_statements_reset()');
      const postgresCpuBefore = await postgresCpuSeconds(context.server.postmasterPid);
      const benchCpuBefore = process.cpuUsage();
      const waits = await watchWaitEvents(url);
      const walBefore = await walPosition(client);
      const startedAt = Date.now();
      const env: Record<string, string> = options.failRate > 0 ? { HOOKLINE_RETRY_SCHEDULE: QUICK_RETRY_SCHEDULE } : {};
      const { workers, profileDir } = await startWorkers(context, url, options.workers, name, env);
      try {
        context.log(`  ${label}: draining`);
        const timeoutMs = Math.max(120_000, options.events * (options.delayMs + 1));
        await receiver.waitForUnique(options.events, timeoutMs);
        await waitForRecorded(client, options.events, 60_000);
        const usage = await workers.usage();
        const postgresCpu = (await postgresCpuSeconds(context.server.postmasterPid)) - postgresCpuBefore;
        const benchCpu = process.cpuUsage(benchCpuBefore);
        const walBytes = await walBytesSince(client, walBefore);
        const socketPeaks = await sockets.stop();
        const waitEvents = await waits.stop();
        const statements = await topStatements(client);
        await workers.stop();
        const counts = receiver.counts();
        const result = await outcome(client);
        const deliverySeconds = (counts.lastSuccessAt! - counts.firstSuccessAt!) / 1000;
        return {
          name: label,
          kind: 'drain',
          events: options.events,
          workers: options.workers,
          endpoints: options.endpoints,
          endpointCap: context.endpointCap,
          receiverDelayMs: options.delayMs,
          receiverFailRate: options.failRate,
          enqueuePerSecond,
          deliveriesPerSecond: Math.round(options.events / Math.max(deliverySeconds, 0.001)),
          deliverySeconds,
          startToFirstDeliveryMs: counts.firstSuccessAt! - startedAt,
          succeeded: result.succeeded,
          dead: result.dead,
          unfinished: result.unfinished,
          successRate: result.succeeded / options.events,
          attempts: result.attempts,
          failedAttempts: result.failed_attempts,
          duplicates: counts.duplicates,
          connectionsAccepted: counts.connections,
          maxOpenConnections: counts.maxOpenConnections,
          peakTimeWait: socketPeaks.peakTimeWait,
          workerCpuSeconds: sum(usage.map((entry) => entry.cpuSeconds)),
          workerPeakRssMb: Math.max(...usage.map((entry) => entry.peakRssMb)),
          postgresCpuSeconds: postgresCpu,
          walBytesPerEvent: Math.round(walBytes / options.events),
          benchProcessCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
          statements,
          waitEvents,
          cpuProfile: await profileOf(profileDir),
        };
      } finally {
        await workers.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

function sum(values: number[]): number {
  return Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;
}

export function formatCount(count: number): string {
  if (count >= 1_000_000 && count % 1_000_000 === 0) return `${count / 1_000_000}M`;
  if (count >= 1000 && count % 1000 === 0) return `${count / 1000}k`;
  return String(count);
}
