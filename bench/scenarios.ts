// The benchmark's cases. Each runs in a fresh database cloned from the migrated template, against
// the shared loopback receiver, with the workers as child processes, and returns one result.
//   pg_net:   pgbench (10 clients x 1,000 inserts) into spice_harvests, once without a trigger, then
//             with an AFTER INSERT trigger calling hookline.send, hookline.http_post, or pg_net's own
//             net.http_post through hookline.install_pg_net_compat() while a worker delivers live; the
//             pg_net benchmark's setup with Hookline in pg_net's place.
//   producer: the same pgbench with the hookline.send trigger and 1, 10 or 100 endpoints subscribed,
//             with a worker delivering and with none: what an event costs its producer; and with
//             triggers doing part of hookline.send's work (PRODUCER_PARTS): where that cost goes.
//   latency:  the same trigger at a fixed offered rate (pgbench -R), for enqueue-to-delivery latency.
//   drain:    N events queued first, then the workers started: how fast a backlog empties.
// A delivery counts when its result is recorded in the database (bench/recorded-results.ts).
import { startOtlpSink } from './otlp-sink';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { BenchDatabaseServer, StatementCost, WalRecordShare, WalRelationShare } from './bench-database';
import type { BenchReceiver, ReceiverCounts } from './bench-receiver';
import { cpuMicrosPerDelivery, startMeasurement, walBytesSince, walPosition, type Measured } from './case-measurement';
import { runPgbench } from './pgbench';
import { measureRetention, type RetentionCost } from './retention-cost';
import { databaseClockOffsetMs, readRecordedWindow, recordedPerSecond, type RecordedWindow } from './recorded-results';
import { BENCH_APPLICATION_NAME } from './lock-waits';
import type { WaitEventShare } from './wait-events';
import { summarizeCpuProfile, type CpuProfileSummary } from './summarize-cpu-profile';
import { startWorkerProcesses, type WorkerProcesses } from './worker-processes';
import { createPool } from '../lib/database/pg';
import { loadConfig } from '../lib/runtime/env';
import { maintainTimePartitions } from '../worker/time-partitions';

export interface BenchContext {
  server: BenchDatabaseServer;
  receiver: BenchReceiver;
  pgbench: string | null;
  /** Endpoint max_concurrency: the per-worker connection cap of each endpoint. */
  endpointCap: number;
  workerEnv: Record<string, string>;
  /** --no-notify (diagnostic): the deliveries' NOTIFY trigger is disabled (producers' check is in hookline.send). */
  notify: boolean;
  /** Set with --profile: CPU profiles of the workers are written under it. */
  profileDir?: string;
  log(line: string): void;
}

export type CaseKind = 'pg_net' | 'latency' | 'drain';

export interface CaseResult {
  name: string;
  /** The largest one-worker, one-endpoint drains: deleting what they delivered (bench/retention-cost.ts). */
  retention?: RetentionCost;
  kind: CaseKind;
  events: number;
  workers: number;
  endpoints: number;
  endpointCap: number;
  receiverDelayMs: number;
  receiverFailRate: number;
  producer?: {
    tpsWithoutTrigger?: number;
    tpsWithTrigger: number;
    /** tpsWithTrigger as % of tpsWithoutTrigger, measured in the same round. */
    percentOfNoTrigger?: number;
    offeredRate?: number;
    transactions: number;
  };
  /** Enqueue rate while queueing a drain backlog (events/s), for reference. */
  enqueuePerSecond?: number;
  /** Deliveries recorded per second, first recorded success to last (recorded-results.ts). */
  deliveriesPerSecond: number;
  /** Distinct deliveries the receiver answered 2xx per second, first to last: sent, not recorded. */
  sentPerSecond: number;
  /** Last result recorded minus the last request the receiver got (issue 11: within 1 s). */
  recordTailMs: number;
  /** Last result recorded minus the moment pgbench finished (pg_net scenario). */
  tailAfterProducerMs?: number;
  /** Last result recorded minus the moment pgbench started (pg_net scenario; issue 22's table). */
  startToLastRecordedMs?: number;
  /** Worker process started until its first result was recorded (drain). */
  startToFirstRecordedMs?: number;
  succeeded: number;
  dead: number;
  unfinished: number;
  successRate: number;
  attempts: number;
  failedAttempts: number;
  /** Requests for a delivery the receiver had already acknowledged or was answering (issue 11: 0). */
  duplicates: number;
  requests: number;
  connectionsAccepted: number;
  maxOpenConnections: number;
  peakTimeWait: number;
  latencyMs?: { p50: number; p95: number; p99: number; max: number };
  workerCpuSeconds: number;
  workerPeakRssMb: number;
  postgresCpuSeconds: number;
  /** Worker + PostgreSQL CPU per succeeded delivery, µs (producers' inserts included in live cases). */
  cpuMicrosPerDelivery: number;
  /** WAL per event end to end: producers' writes and delivery (a drain's queueing included). */
  walBytesPerEvent: number;
  /** The part of walBytesPerEvent written while queueing (drain only). */
  walEnqueueBytesPerEvent?: number;
  benchProcessCpuSeconds: number;
  statements: StatementCost[];
  walRecords: WalRecordShare[];
  walRelations: WalRelationShare[];
  /** What active Postgres backends waited on while the case ran (sampled). */
  waitEvents: WaitEventShare[];
  cpuProfile?: CpuProfileSummary;
  /** Spans the local OTLP sink received (the tracing scenario's 'on' case). */
  spansExported?: number;
}

/** Producer TPS with the hookline.send trigger for a number of subscribed endpoints. */
export interface ProducerResult {
  name: string;
  endpoints: number;
  tpsWithoutTrigger: number;
  /** With one worker delivering beside the producers, as in production (and as pg_net was measured). */
  tpsWithWorker: number;
  percentWithWorker: number;
  /**
   * With no worker running (but registered as polling, so no NOTIFY): the producers' own cost, with
   * no CPU taken by delivering.
   */
  tpsAlone: number;
  percentAlone: number;
}

export const SPICE_TABLE = `
  CREATE TABLE spice_harvests (
    id            bigserial PRIMARY KEY,
    planet        text NOT NULL,
    tonnes        numeric NOT NULL,
    harvested_at  timestamptz NOT NULL DEFAULT now()
  );`;
export const SPICE_INSERT = `INSERT INTO spice_harvests (planet, tonnes) VALUES ('Arrakis', random() * 100);\n`;
/** The same row as SPICE_INSERT, $1 of them in one statement (the soak's paced producers). */
export const SPICE_INSERT_ROWS = `INSERT INTO spice_harvests (planet, tonnes) SELECT 'Arrakis', random() * 100 FROM generate_series(1, $1::int)`;

/** net_http_post: the pg_net benchmark's trigger unchanged, through the compatibility schema. */
export type TriggerMode = 'send' | 'http_post' | 'net_http_post';

const TRIGGER_NAMES: Record<TriggerMode, string> = {
  send: 'hookline.send',
  http_post: 'hookline.http_post',
  net_http_post: 'net.http_post via hookline.install_pg_net_compat',
};

/**
 * A fresh case database with the time partitions a running install already has: its workers'
 * maintenance (`retentionMs`: the HOOKLINE_RETENTION they are given; default, the worker's 30 days)
 * finds its periods made. Made by the worker at start instead, they were 12 tables' DDL inside every
 * case's measurement, ~37 B of WAL per event in a 20k drain (pg_attribute, pg_class, pg_depend and
 * their indexes, PostgreSQL 18 `--profile`) that a running install writes once a period, not per event.
 */
export async function createCaseDatabase(
  context: BenchContext,
  name: string,
  { retentionMs = loadConfig().HOOKLINE_RETENTION }: { retentionMs?: number | null } = {},
): Promise<string> {
  const url = await context.server.create(name);
  if (!context.notify) {
    await withClient(url, (client) =>
      client.query(`ALTER TABLE hookline.deliveries DISABLE TRIGGER deliveries_notify`),
    );
  }
  const pool = createPool(url, { max: 1 });
  try {
    await maintainTimePartitions(pool, { retentionMs });
  } finally {
    await pool.end();
  }
  return url;
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  // Without JIT: on a PostgreSQL built with LLVM (Debian's 15), the soak's once-a-minute read of the
  // recorded latencies was compiled for ~3 s of CPU each time, taken from what the bench measures.
  // Named, so the soak's lock-wait watch can tell the bench's reads from Hookline's statements.
  const client = new pg.Client({
    connectionString: url,
    options: '-c jit=off',
    application_name: BENCH_APPLICATION_NAME,
  });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function createApp(client: pg.ClientBase): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`INSERT INTO hookline.apps (name) VALUES ('bench') RETURNING id`);
  return rows[0]!.id;
}

/**
 * `count` endpoints at <receiver>/e<i>. Endpoint i takes event type bench.e<i> (a drain spreads its
 * events over them), or with `allSubscribed` every endpoint takes bench.e0 (each event fans out to
 * all of them).
 */
export async function createEndpoints(
  client: pg.ClientBase,
  appId: string,
  receiverUrl: string,
  count: number,
  cap: number,
  allSubscribed = false,
): Promise<void> {
  await client.query(
    `WITH endpoints AS (
       INSERT INTO hookline.endpoints (app_id, url, event_types, max_concurrency)
       SELECT $1, $2 || '/e' || i, ARRAY['bench.e' || CASE WHEN $5 THEN 0 ELSE i END], $4
         FROM generate_series(0, $3 - 1) AS i
       RETURNING id
     ), types AS (
       INSERT INTO hookline.event_types (app_id, name) SELECT $1, 'bench.e' || i FROM generate_series(0, $3 - 1) AS i
     )
     INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret)
     SELECT $1, id, 'whsec_' || encode(decode(md5(id), 'hex') || decode(md5(id || 'x'), 'hex'), 'base64') FROM endpoints`,
    [appId, receiverUrl, count, cap, allSubscribed],
  );
}

/** An AFTER INSERT trigger on spice_harvests that runs `call` for each row. */
export function triggerCalling(call: string): string {
  return `
    CREATE FUNCTION spice_harvest_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${call}
      RETURN NEW;
    END $$;
    CREATE TRIGGER spice_harvest_webhook AFTER INSERT ON spice_harvests
      FOR EACH ROW EXECUTE FUNCTION spice_harvest_webhook();`;
}

/** The pg_net benchmark's trigger, with Hookline where pg_net was. */
function triggerSql(mode: TriggerMode, appId: string | null, url: string): string {
  const call = {
    send: `PERFORM hookline.send('${appId}', 'bench.e0', to_jsonb(NEW));`,
    http_post: `PERFORM hookline.http_post(url := '${url}', body := to_jsonb(NEW), headers := '{"Content-Type": "application/json"}'::jsonb);`,
    net_http_post: `PERFORM net.http_post(url := '${url}', body := to_jsonb(NEW), headers := '{"Content-Type": "application/json"}'::jsonb);`,
  }[mode];
  return triggerCalling(call);
}

// Without a worker the messages' trigger would NOTIFY on every commit (nobody is polling), which
// serializes the producers' commits and measured them at a fifth of the TPS they reach beside a busy
// worker. A polling worker's row gives the producers the path they take in steady state: no NOTIFY,
// and no delivery competing for the cores.
export const POLLING_STAND_IN = `INSERT INTO hookline.polling_workers (worker_id, until) VALUES ('bench-no-worker', now() + interval '1 hour')`;

/** The pg_net benchmark's pgbench (inserts into spice_harvests, 2 threads): its TPS. */
async function producerTps(
  context: BenchContext,
  url: string,
  options: { clients: number; transactionsPerClient: number },
): Promise<number> {
  const run = await runPgbench({
    binary: context.pgbench!,
    databaseUrl: url,
    script: SPICE_INSERT,
    clients: options.clients,
    threads: 2,
    transactionsPerClient: options.transactionsPerClient,
  });
  return run.tps;
}

/** spice_harvests with the trigger; for hookline.send, an app with `endpoints` subscribed to its event. */
export async function prepareProducer(
  context: BenchContext,
  client: pg.ClientBase,
  mode: TriggerMode,
  endpoints: number,
): Promise<void> {
  let appId: string | null = null;
  await client.query(SPICE_TABLE);
  if (mode === 'send') {
    appId = await createApp(client);
    await createEndpoints(client, appId, context.receiver.url, endpoints, context.endpointCap, true);
  }
  if (mode === 'net_http_post') await client.query('SELECT hookline.install_pg_net_compat()');
  await client.query(triggerSql(mode, appId, `${context.receiver.url}/e0`));
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
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

/** Starts workers for a case; the profile folder is per case so each case's profile is its own. */
export async function startWorkers(
  context: BenchContext,
  url: string,
  count: number,
  name: string,
  env: Record<string, string> = {},
): Promise<{ workers: WorkerProcesses; profileDir?: string }> {
  const profileDir = context.profileDir ? join(context.profileDir, name) : undefined;
  const workers = await startWorkerProcesses({
    databaseUrl: url,
    count,
    env: { ...context.workerEnv, ...env },
    cpuProfileDir: profileDir,
  });
  return { workers, profileDir };
}

/** What the deliveries, the receiver and the measurement say, in the fields every case reports. */
function deliveryFields(
  expected: number,
  recorded: RecordedWindow,
  counts: ReceiverCounts,
  result: Awaited<ReturnType<typeof outcome>>,
  measured: Measured,
) {
  const sentSeconds = (counts.lastSuccessAt! - counts.firstSuccessAt!) / 1000;
  return {
    deliveriesPerSecond: recordedPerSecond(recorded),
    sentPerSecond: sentSeconds > 0 ? Math.round(counts.uniqueSucceeded / sentSeconds) : NaN,
    recordTailMs: Math.round(recorded.lastResultAt - counts.lastRequestAt!),
    succeeded: result.succeeded,
    dead: result.dead,
    unfinished: result.unfinished,
    successRate: result.succeeded / expected,
    attempts: result.attempts,
    failedAttempts: result.failed_attempts,
    duplicates: counts.duplicates,
    requests: counts.requests,
    connectionsAccepted: counts.connections,
    maxOpenConnections: counts.maxOpenConnections,
    peakTimeWait: measured.peakTimeWait,
    workerCpuSeconds: measured.workerCpuSeconds,
    workerPeakRssMb: measured.workerPeakRssMb,
    postgresCpuSeconds: measured.postgresCpuSeconds,
    cpuMicrosPerDelivery: cpuMicrosPerDelivery(measured, result.succeeded),
    walBytesPerEvent: Math.round(measured.walBytes / expected),
    benchProcessCpuSeconds: measured.benchProcessCpuSeconds,
    statements: measured.statements,
    walRecords: measured.walRecords,
    walRelations: measured.walRelations,
    waitEvents: measured.waitEvents,
  };
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
    return await producerTps(context, url, { clients, transactionsPerClient: transactions });
  } finally {
    await context.server.drop(name);
  }
}

/**
 * Producer TPS with the hookline.send trigger and `endpoints` subscribed, with one worker delivering
 * or none. The case ends with pgbench: its deliveries (up to 100 per event) are not waited for; the
 * 1-endpoint pg_net case covers delivery.
 */
export async function runProducerCase(
  context: BenchContext,
  options: { endpoints: number; withWorker: boolean; clients: number; transactionsPerClient: number },
): Promise<number> {
  const name = `bench_producer_${options.endpoints}ep_${options.withWorker ? 'worker' : 'alone'}`;
  const url = await createCaseDatabase(context, name);
  try {
    return await withClient(url, async (client) => {
      await prepareProducer(context, client, 'send', options.endpoints);
      const started = options.withWorker ? await startWorkers(context, url, 1, name) : undefined;
      if (!options.withWorker) await client.query(POLLING_STAND_IN);
      try {
        context.receiver.setBehaviour({ delayMs: 0, failRate: 0 });
        context.receiver.reset();
        return await producerTps(context, url, options);
      } finally {
        await started?.workers.stop();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

/** A part of hookline.send's work, as a trigger function of its own (PRODUCER_PARTS). */
export interface ProducerPartSpec {
  label: string;
  /** The trigger function's body after `BEGIN`. */
  body: string;
  /** SQL run once before the producers start (tables of its own). */
  setup?: string;
}

/**
 * What a hookline.send trigger costs its producer, in parts: the same pgbench with a trigger calling a
 * PL/pgSQL function that does only part of hookline.send's work (no worker running, as the producer
 * case "no worker"). Each part adds to the one before (but `narrow` and `inbox`, experiments beside `written`);
 * hookline.send itself adds its checks (the event type looked up, the payload's size, the idempotency
 * key) to `written`. PL/pgSQL like hookline.send:
 * PostgreSQL before 18 plans a SQL function's statement afresh on every call.
 */
export const PRODUCER_PARTS = {
  call: {
    label: 'trigger calling an empty function',
    body: 'RETURN NULL;',
  },
  message: {
    label: '+ the message row, without written_by',
    body: `INSERT INTO hookline.messages (app_id, event_type, payload, written_by)
           VALUES (p_app_id, p_event_type, p_payload, NULL)
           RETURNING id INTO v_id;
           RETURN v_id;`,
  },
  written: {
    label: '+ its written_by (the fan-out finds it by; an index entry)',
    body: `INSERT INTO hookline.messages (app_id, event_type, payload) VALUES (p_app_id, p_event_type, p_payload)
           RETURNING id INTO v_id;
           RETURN v_id;`,
  },
  // An experiment, not the schema (issue 22: "measure the WAL and TPS smaller keys buy before
  // deciding"): the row of `written` in a table like hookline.messages, partitioned the same way by its
  // id, with the same indexes, but whose id and app id are bigints (8 bytes in every index entry
  // instead of a 16-byte uuid and a 36-character app id: app_, 12 hex digits of time, 20 random).
  narrow: {
    label: 'the same row and indexes with bigint ids (experiment)',
    setup: `CREATE SEQUENCE bench_narrow_low_bits;
            CREATE TABLE bench_narrow_messages (
              -- Milliseconds since 1970 in the high bits, as Hookline's ids begin with them: time-ordered, and
              -- partitioned by time as hookline.messages is. The low 20 bits from a sequence: random ones
              -- collided (~8 inserts a millisecond, 2^20 values: one run in three failed on the key).
              id bigint NOT NULL
                DEFAULT (floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint << 20)
                        | (nextval('bench_narrow_low_bits') % 1048576),
              app_id bigint NOT NULL,
              event_type text NOT NULL,
              payload jsonb NOT NULL,
              idempotency_key text,
              request_id bigint,
              created_at timestamptz NOT NULL DEFAULT now(),
              target_endpoint_id bigint,
              traceparent text,
              tracestate text,
              written_by xid8 DEFAULT pg_current_xact_id(),
              PRIMARY KEY (app_id, id)
            ) PARTITION BY RANGE (id);
            DO $$
            DECLARE
              v_now_ms bigint := floor(extract(epoch FROM now()) * 1000)::bigint;
            BEGIN
              EXECUTE format('CREATE TABLE bench_narrow_messages_now PARTITION OF bench_narrow_messages
                                FOR VALUES FROM (%s) TO (%s)', (v_now_ms - 86400000) << 20, (v_now_ms + 86400000) << 20);
            END $$;
            CREATE INDEX ON bench_narrow_messages (request_id) WHERE request_id IS NOT NULL;
            CREATE INDEX ON bench_narrow_messages (written_by, id) WHERE written_by IS NOT NULL;`,
    body: `INSERT INTO bench_narrow_messages (app_id, event_type, payload) VALUES (1, p_event_type, p_payload)
           RETURNING id INTO v_id;
           RETURN v_id;`,
  },
  // An experiment, not the schema: what a producer would pay if it wrote the event into an append-only
  // table with no index and no partitions, which the worker would then move into hookline.messages in
  // batches (an inbox, emptied by truncating rotated tables as PgQ does). Its WAL is the producer's
  // share alone: the move would write the message row and its index entries again. By perf on 15
  // (bench/README.md), the message row costs the trigger ~43 us over an empty call; this ~8.
  inbox: {
    label: 'the same payload into an unindexed, unpartitioned inbox (experiment)',
    setup: `CREATE TABLE bench_inbox (
              app_id text NOT NULL,
              event_type text NOT NULL,
              payload jsonb NOT NULL,
              created_at timestamptz NOT NULL DEFAULT now(),
              written_by xid8 DEFAULT pg_current_xact_id()
            );`,
    body: `INSERT INTO bench_inbox (app_id, event_type, payload) VALUES (p_app_id, p_event_type, p_payload);
           RETURN NULL;`,
  },
} satisfies Record<string, ProducerPartSpec>;
export type ProducerPart = keyof typeof PRODUCER_PARTS;

export interface ProducerPartResult {
  name: string;
  part: ProducerPart;
  tps: number;
  percentOfNoTrigger: number;
  /** WAL written per producer transaction: its own row, what the trigger wrote, the commit. */
  walBytesPerInsert: number;
}

/** The trigger on spice_harvests doing `part` of hookline.send's work, as a PL/pgSQL function of its own. */
export async function installProducerPart(client: pg.ClientBase, appId: string, part: ProducerPartSpec): Promise<void> {
  if (part.setup) await client.query(part.setup);
  await client.query(`
    CREATE FUNCTION bench_send_part(p_app_id text, p_event_type text, p_payload jsonb) RETURNS text
    LANGUAGE plpgsql AS $$
    DECLARE
      v_id text;
    BEGIN
      ${part.body}
    END $$;`);
  await client.query(triggerCalling(`PERFORM bench_send_part('${appId}', 'bench.e0', to_jsonb(NEW));`));
}

export async function runProducerPartCase(
  context: BenchContext,
  options: { part: ProducerPart; clients: number; transactionsPerClient: number; tpsWithoutTrigger: number },
): Promise<ProducerPartResult> {
  const name = `bench_producer_part_${options.part}`;
  const url = await createCaseDatabase(context, name);
  try {
    const { tps, walBytesPerInsert } = await withClient(url, async (client) => {
      await client.query(SPICE_TABLE);
      const appId = await createApp(client);
      await createEndpoints(client, appId, context.receiver.url, 1, context.endpointCap, true);
      await installProducerPart(client, appId, PRODUCER_PARTS[options.part]);
      await client.query(POLLING_STAND_IN);
      const walBefore = await walPosition(client);
      const tps = await producerTps(context, url, options);
      const transactions = options.clients * options.transactionsPerClient;
      return { tps, walBytesPerInsert: (await walBytesSince(client, walBefore)) / transactions };
    });
    return {
      name: PRODUCER_PARTS[options.part].label,
      part: options.part,
      tps,
      percentOfNoTrigger: (tps / options.tpsWithoutTrigger) * 100,
      walBytesPerInsert,
    };
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
      await prepareProducer(context, client, options.mode, 1);
      const clockOffsetMs = await databaseClockOffsetMs(client);
      const measurement = await startMeasurement(context, client, url);
      const { workers, profileDir } = await startWorkers(context, url, 1, name);
      try {
        await measurement.workersStarted(workers);
        receiver.setBehaviour({ delayMs: 0, failRate: 0 });
        receiver.reset();
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
        const measured = await measurement.finish(workers);
        await workers.stop();
        const counts = receiver.counts();
        const result = await outcome(client);
        const recorded = await readRecordedWindow(client, clockOffsetMs);
        const fields = deliveryFields(expected, recorded, counts, result, measured);
        // The producers' first insert opens the window here: deliveries are recorded while they run.
        const { rows } = await client.query<{ first_ms: string }>(
          `SELECT (extract(epoch FROM min(created_at)) * 1000)::text AS first_ms FROM hookline.messages`,
        );
        const firstInsertAt = Number(rows[0]!.first_ms) - clockOffsetMs;
        return {
          name: `${options.kind} (${TRIGGER_NAMES[options.mode]})`,
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
            percentOfNoTrigger: options.tpsWithoutTrigger ? (run.tps / options.tpsWithoutTrigger) * 100 : undefined,
            offeredRate: options.rate,
            transactions: run.transactions,
          },
          ...fields,
          deliveriesPerSecond: Math.round(result.succeeded / ((recorded.lastSuccessAt - firstInsertAt) / 1000)),
          tailAfterProducerMs: Math.round(recorded.lastResultAt - run.finishedAt),
          startToLastRecordedMs: Math.round(recorded.lastResultAt - run.startedAt),
          // The receiver's clock minus the message's created_at on the database's clock.
          latencyMs: latencySummary(receiver.latencies().map((ms) => ms + clockOffsetMs)),
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
  /**
   * The tracing scenario: 'off' runs the worker as every other drain does (no OTEL_* variable); 'on'
   * points it at a local OTLP sink (bench/otlp-sink.ts), so it writes and exports a span per attempt.
   */
  tracing?: 'off' | 'on';
}

// Retries for the failing-receiver case: the default schedule's 5 s and 5 min steps would make a
// 10%-failing run last minutes; ten quick retries end every delivery (0.1^11 = 1e-11 to go dead).
const QUICK_RETRY_SCHEDULE = '0,50ms,100ms,200ms,300ms,500ms,500ms,500ms,500ms,500ms,500ms';

export function drainLabel(options: DrainCaseOptions): string {
  return (
    `drain ${formatCount(options.events)} x${options.workers}w ${options.endpoints}ep` +
    `${options.delayMs ? ` ${options.delayMs}ms` : ''}${options.failRate ? ` fail${options.failRate * 100}%` : ''}` +
    `${options.tracing ? ` tracing ${options.tracing}` : ''}`
  );
}

export async function runDrainCase(context: BenchContext, options: DrainCaseOptions): Promise<CaseResult> {
  const label = drainLabel(options);
  const name = `bench_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  const url = await createCaseDatabase(context, name);
  const { receiver } = context;
  try {
    return await withClient(url, async (client) => {
      const appId = await createApp(client);
      await createEndpoints(client, appId, receiver.url, options.endpoints, context.endpointCap);
      context.log(`  ${label}: queueing ${options.events} events`);
      const walBeforeQueueing = await walPosition(client);
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
      const walEnqueueBytes = await walBytesSince(client, walBeforeQueueing);
      // Autovacuum would otherwise analyse the new rows in the middle of the drain; a deployment
      // that queued a backlog has statistics too.
      await client.query('ANALYZE hookline.messages');
      await client.query('ANALYZE hookline.deliveries');

      receiver.setBehaviour({ delayMs: options.delayMs, failRate: options.failRate });
      receiver.reset();
      const clockOffsetMs = await databaseClockOffsetMs(client);
      const measurement = await startMeasurement(context, client, url, walBeforeQueueing);
      const startedAt = Date.now();
      const env: Record<string, string> = options.failRate > 0 ? { HOOKLINE_RETRY_SCHEDULE: QUICK_RETRY_SCHEDULE } : {};
      const sink = options.tracing === 'on' ? await startOtlpSink() : null;
      if (sink) env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
      const { workers, profileDir } = await startWorkers(context, url, options.workers, name, env);
      try {
        await measurement.workersStarted(workers);
        context.log(`  ${label}: draining`);
        const timeoutMs = Math.max(120_000, options.events * (options.delayMs + 1));
        await receiver.waitForUnique(options.events, timeoutMs);
        await waitForRecorded(client, options.events, 60_000);
        const measured = await measurement.finish(workers);
        await workers.stop();
        // The worker flushed its last spans when it stopped (lib/runtime/start-tracing.ts).
        const spansExported = sink ? sink.spans : undefined;
        await sink?.close();
        const counts = receiver.counts();
        const result = await outcome(client);
        const recorded = await readRecordedWindow(client, clockOffsetMs);
        const retention =
          options.events >= 100_000 && options.workers === 1 && options.endpoints === 1 && !options.failRate
            ? await measureRetention(client, url)
            : undefined;
        return {
          retention,
          name: label,
          kind: 'drain',
          events: options.events,
          workers: options.workers,
          endpoints: options.endpoints,
          endpointCap: context.endpointCap,
          receiverDelayMs: options.delayMs,
          receiverFailRate: options.failRate,
          enqueuePerSecond,
          ...deliveryFields(options.events, recorded, counts, result, measured),
          walEnqueueBytesPerEvent: Math.round(walEnqueueBytes / options.events),
          startToFirstRecordedMs: Math.round(recorded.firstSuccessAt - startedAt),
          spansExported,
          cpuProfile: await profileOf(profileDir),
        };
      } finally {
        await workers.stop();
        await sink?.close();
      }
    });
  } finally {
    await context.server.drop(name);
  }
}

export function formatCount(count: number): string {
  if (count >= 1_000_000 && count % 1_000_000 === 0) return `${count / 1_000_000}M`;
  if (count >= 1000 && count % 1000 === 0) return `${count / 1000}k`;
  return String(count);
}
