// `npm run bench`: Hookline's benchmarks, from a fresh clone, on this machine only (loopback).
// Starts an embedded PostgreSQL in a temp folder (durable settings), or uses the one given by
// --database-url, migrates a template there, runs a loopback receiver and workers as child
// processes, prints tables and the verdict on each target, and writes JSON to bench/results/.
// `npm run bench -- --help` lists the options.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  BENCH_POSTGRES_SETTINGS,
  readServerSettings,
  startBenchDatabase,
  type BenchDatabaseServer,
} from './bench-database';
import { startBenchReceiver, type BenchReceiver } from './bench-receiver';
import { connectGivenDatabase } from './given-database';
import { findPgbench, PGBENCH_MISSING } from './pgbench';
import { summarizeRounds, type Summary } from './repeat';
import { runGraphilePeer, type PeerResult } from './graphile-peer';
import {
  describeTuning,
  GRAPHILE_WORKER_MISSING,
  loadGraphileWorker,
  type LoadedGraphileWorker,
} from './graphile-worker-module';
import { peerTable } from './peer-report';
import { runSoak, type SoakResult } from './soak';
import { soakVerdictTable, writeSoakFiles } from './soak-files';
import { casesTable, judgeTargets, producerPartsTable, producerTable, profileReport, targetsTable } from './report';
import {
  drainLabel,
  PRODUCER_PARTS,
  runBaselineProducer,
  runDrainCase,
  runLiveCase,
  runProducerCase,
  runProducerPartCase,
  type BenchContext,
  type CaseResult,
  type DrainCaseOptions,
  type ProducerPart,
  type ProducerPartResult,
  type ProducerResult,
} from './scenarios';

const HELP = `Usage: npm run bench -- [options]

  --database-url=URL run every case on this PostgreSQL (14+; the role needs CREATEDB) instead of the
                     embedded 18, each in a database of its own (hookline_bench_*); e.g. the Debian
                     PostgreSQL 15 that \`npx tsx bench/start-debian-postgres.ts\` starts
  --repeat=N         run every case N times, interleaved; report medians and min-max (1)
  --scenario=LIST    pg_net,latency,drain,graphile,soak,tracing (default: pg_net,latency,drain,graphile;
                     the soak runs only when named, and once whatever --repeat says).
                     tracing: a drain of --tracing-events by one worker with tracing off (no OTEL_*
                     variable), and the same with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local
                     OTLP sink (a span per attempt, exported); deliveries/s and worker CPU per
                     delivery side by side. Only when named.
  --tracing-events=N events in each drain of the tracing scenario (20000)
                     graphile: graphile-worker 0.18 as a peer, if installed (npm install --no-save
                     graphile-worker@0.18; skipped with a note otherwise), beside Hookline's
                     pg_net case and drain of --peer-events, which run with it
  --peer-events=N    jobs in the peer's drain, and in Hookline's drain it is compared with (100000)
  --events=LIST      drain matrix: events queued per case, e.g. 10000,100000,1000000
  --workers=LIST     drain matrix: worker processes, e.g. 1,2,4
  --endpoints=LIST   drain matrix: endpoints the events are spread over, e.g. 1,100
  --delay=LIST       drain matrix: receiver answer delay in ms, e.g. 0,50
  --fail=LIST        drain matrix: share of requests the receiver answers 500, e.g. 0,0.1
                     Giving any matrix option runs every combination of the lists (missing
                     ones default to 10000 / 1 / 1 / 0 / 0). Without them a default set runs:
                     100k x1 worker (the drain, CPU and WAL targets),
                     20k x1, x2 and x4 workers (scaling), 10k over 100 endpoints (at once and
                     with a 50 ms receiver), 10k with 10% failures.
  --cap=N            max_concurrency of every bench endpoint = its per-worker connection cap (10)
  --clients=N        pgbench clients for the pg_net scenario (10)
  --transactions=N   pgbench inserts per client for the pg_net scenario (1000)
  --producer-endpoints=LIST  subscribed endpoints for the producer-cost runs of the pg_net
                     scenario (1,10,100); the scenario also runs triggers doing part of
                     hookline.send's work (an empty call, the message row, its written_by),
                     and the same row and indexes with bigint ids (an experiment), with WAL per insert
  --rate=N           offered inserts/s for the latency scenario and the soak (1000)
  --seconds=N        duration of the latency scenario (10)
  --minutes=N        duration of the soak, at least 3 (30); its retention is a third of it and its
                     verdict's windows scale by N/30
  --no-notify        diagnostic: disable the deliveries' NOTIFY trigger (replays, jobs), so workers wake
                     for those by polling only (set HOOKLINE_POLL_INTERVAL_MS too). Producers' own
                     check (in hookline.send, migration 20261130100000_wake_in_producers) stays
  --profile          per case: node --cpu-prof of the workers, pg_stat_statements, PostgreSQL wait events
  --template-sql=SQL an experiment: run SQL in the migrated template every case database is cloned from
                     (e.g. "DROP INDEX hookline.deliveries_app_id_created_at_idx": what would it buy?);
                     printed in the header and kept in the results
  --help

HOOKLINE_* variables in the environment are passed to the workers (e.g. HOOKLINE_WORKER_CONCURRENCY).
`;

function numbers(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new Error(`expected a comma-separated list of numbers, got "${raw}"`);
  }
  return values;
}

function integer(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return value;
}

// Scaling compares worker counts on drains of the same size (startup and the first flush weigh
// more in a small drain), so 1, 2 and 4 workers each get 20k besides the 100k single-worker drain.
const DEFAULT_DRAINS: DrainCaseOptions[] = [
  { events: 100_000, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 20_000, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 20_000, workers: 2, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 20_000, workers: 4, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 10_000, workers: 1, endpoints: 100, delayMs: 0, failRate: 0 },
  { events: 10_000, workers: 1, endpoints: 100, delayMs: 50, failRate: 0 },
  { events: 10_000, workers: 1, endpoints: 1, delayMs: 0, failRate: 0.1 },
];

function drainCases(values: Record<string, string | boolean | undefined>): DrainCaseOptions[] {
  const given = ['events', 'workers', 'endpoints', 'delay', 'fail'].some((name) => values[name] !== undefined);
  if (!given) return DEFAULT_DRAINS;
  const cases: DrainCaseOptions[] = [];
  for (const events of numbers(values.events as string | undefined, [10_000]))
    for (const workers of numbers(values.workers as string | undefined, [1]))
      for (const endpoints of numbers(values.endpoints as string | undefined, [1]))
        for (const delayMs of numbers(values.delay as string | undefined, [0]))
          for (const failRate of numbers(values.fail as string | undefined, [0])) {
            if (failRate >= 1) throw new Error(`--fail is a share from 0 to 1 (0.1 = 10%), got ${failRate}`);
            cases.push({ events, workers, endpoints, delayMs, failRate });
          }
  return cases;
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

interface RunOptions {
  scenarios: Set<string>;
  drains: DrainCaseOptions[];
  clients: number;
  transactions: number;
  producerEndpoints: number[];
  rate: number;
  seconds: number;
  minutes: number;
  /** The graphile-worker peer, when the scenario is asked for and the package is installed. */
  graphile: LoadedGraphileWorker | null;
  peerEvents: number;
  tracingEvents: number;
}

interface Round {
  cases: CaseResult[];
  producers: ProducerResult[];
  producerParts: ProducerPartResult[];
  peers: PeerResult[];
  errors: string[];
}

/** One run of every case. */
async function runRound(context: BenchContext, options: RunOptions, round: string, index = 1): Promise<Round> {
  const cases: CaseResult[] = [];
  const producers: ProducerResult[] = [];
  const producerParts: ProducerPartResult[] = [];
  const peers: PeerResult[] = [];
  const errors: string[] = [];
  const attempt = async <T>(label: string, run: () => Promise<T>): Promise<T | undefined> => {
    console.log(`${round}${label} ...`);
    try {
      return await run();
    } catch (error) {
      errors.push(`${round}${label}: ${(error as Error).message}`);
      console.error(`  failed: ${(error as Error).message}`);
      return undefined;
    }
  };
  const runCase = async (label: string, run: () => Promise<CaseResult>) => {
    const result = await attempt(label, run);
    if (!result) return undefined;
    cases.push(result);
    console.log(
      `  ${result.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s recorded, ` +
        `${(result.successRate * 100).toFixed(2)}% succeeded, ${result.duplicates} duplicate sends`,
    );
    return result;
  };
  const { clients, transactions, graphile } = options;
  const pgNet = options.scenarios.has('pg_net');

  // The peer is compared with Hookline's pg_net case and its drain of the same size: without the
  // pg_net scenario, its baseline and hookline.send case still run.
  let peerBaselineTps: number | undefined;
  if (pgNet || graphile) {
    const tpsWithoutTrigger = await attempt(
      `pg_net scenario: pgbench -c ${clients} -j 2 -t ${transactions}, no trigger`,
      () => runBaselineProducer(context, clients, transactions),
    );
    peerBaselineTps = tpsWithoutTrigger;
    if (tpsWithoutTrigger !== undefined) {
      console.log(`  ${tpsWithoutTrigger.toFixed(0)} TPS without a trigger`);
      const live = await runCase('pg_net scenario with a hookline.send trigger, 1 endpoint', () =>
        runLiveCase(context, {
          kind: 'pg_net',
          mode: 'send',
          clients,
          transactionsPerClient: transactions,
          tpsWithoutTrigger,
        }),
      );
      for (const endpoints of pgNet ? options.producerEndpoints : []) {
        const producer = (withWorker: boolean) =>
          attempt(
            `producer: hookline.send trigger, ${endpoints} endpoint(s), ${withWorker ? 'worker delivering' : 'no worker'}`,
            () => runProducerCase(context, { endpoints, withWorker, clients, transactionsPerClient: transactions }),
          );
        // With one endpoint the pg_net case above is this very measurement.
        const withWorker = endpoints === 1 ? live?.producer?.tpsWithTrigger : await producer(true);
        const alone = await producer(false);
        const percent = (tps: number | undefined) => ((tps ?? NaN) / tpsWithoutTrigger) * 100;
        producers.push({
          name: `${endpoints} endpoint${endpoints === 1 ? '' : 's'} subscribed`,
          endpoints,
          tpsWithoutTrigger,
          tpsWithWorker: withWorker ?? NaN,
          percentWithWorker: percent(withWorker),
          tpsAlone: alone ?? NaN,
          percentAlone: percent(alone),
        });
        console.log(
          `  ${endpoints} endpoint(s): ${percent(withWorker).toFixed(1)}% of no trigger with a worker, ${percent(alone).toFixed(1)}% alone`,
        );
      }
      for (const part of pgNet ? (Object.keys(PRODUCER_PARTS) as ProducerPart[]) : []) {
        const result = await attempt(`producer, in parts: ${PRODUCER_PARTS[part].label}, no worker`, () =>
          runProducerPartCase(context, { part, clients, transactionsPerClient: transactions, tpsWithoutTrigger }),
        );
        if (result) {
          producerParts.push(result);
          console.log(`  ${result.percentOfNoTrigger.toFixed(1)}% of no trigger`);
        }
      }
      if (pgNet) {
        await runCase('pg_net scenario with a hookline.http_post trigger', () =>
          runLiveCase(context, {
            kind: 'pg_net',
            mode: 'http_post',
            clients,
            transactionsPerClient: transactions,
            tpsWithoutTrigger,
          }),
        );
        // The pg_net benchmark's trigger as written (net.http_post), through the compatibility schema:
        // issue 25 allows it at most 2 points of producer TPS more than hookline.http_post.
        await runCase('pg_net scenario with its net.http_post trigger unchanged (compatibility schema)', () =>
          runLiveCase(context, {
            kind: 'pg_net',
            mode: 'net_http_post',
            clients,
            transactionsPerClient: transactions,
            tpsWithoutTrigger,
          }),
        );
      }
    }
  }
  if (options.scenarios.has('latency')) {
    await runCase(`latency at ${options.rate}/s offered for ${options.seconds} s`, () =>
      runLiveCase(context, { kind: 'latency', mode: 'send', clients: 4, rate: options.rate, seconds: options.seconds }),
    );
  }
  for (const drain of options.drains) {
    await runCase(drainLabel(drain), () => runDrainCase(context, drain));
  }
  if (options.scenarios.has('tracing')) {
    // Off first in odd rounds, on first in even ones: whichever runs second finds a warmer machine.
    const order: ('off' | 'on')[] = index % 2 === 1 ? ['off', 'on'] : ['on', 'off'];
    for (const tracing of order) {
      const drain: DrainCaseOptions = {
        events: options.tracingEvents,
        workers: 1,
        endpoints: 1,
        delayMs: 0,
        failRate: 0,
        tracing,
      };
      await runCase(drainLabel(drain), () => runDrainCase(context, drain));
    }
  }
  if (graphile && peerBaselineTps !== undefined) {
    const baseline = peerBaselineTps;
    const peer = await attempt(`peer: graphile-worker ${graphile.version} (${describeTuning()})`, () =>
      runGraphilePeer(context, graphile, {
        clients,
        transactionsPerClient: transactions,
        tpsWithoutTrigger: baseline,
        drainEvents: options.peerEvents,
      }),
    );
    if (peer) {
      peers.push(peer);
      console.log(
        `  producer ${peer.producerTps.toFixed(0)} TPS (${peer.percentOfNoTrigger.toFixed(1)}% of no trigger), ` +
          `drain ${peer.drainPerSecond.toLocaleString('en-US')} jobs/s completed, ${peer.duplicates} duplicate sends`,
      );
    }
  }
  return { cases, producers, producerParts, peers, errors };
}

/** Whether this Node meets a ">=major.minor" requirement (the form graphile-worker declares). */
function nodeSatisfies(required: string): boolean {
  const match = /^>=\s*(\d+)\.(\d+)/.exec(required.trim());
  if (!match) return true;
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const wanted = [Number(match[1]), Number(match[2])] as const;
  return major > wanted[0] || (major === wanted[0] && minor >= wanted[1]);
}

const roundedLoad = () => loadavg().map((load) => Math.round(load * 100) / 100);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      repeat: { type: 'string' },
      'tracing-events': { type: 'string' },
      scenario: { type: 'string' },
      events: { type: 'string' },
      workers: { type: 'string' },
      endpoints: { type: 'string' },
      delay: { type: 'string' },
      fail: { type: 'string' },
      cap: { type: 'string' },
      clients: { type: 'string' },
      transactions: { type: 'string' },
      'producer-endpoints': { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      minutes: { type: 'string' },
      'peer-events': { type: 'string' },
      profile: { type: 'boolean', default: false },
      'template-sql': { type: 'string' },
      'no-notify': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const scenarios = new Set((values.scenario ?? 'pg_net,latency,drain,graphile').split(',').map((name) => name.trim()));
  for (const scenario of scenarios) {
    if (!['pg_net', 'latency', 'drain', 'graphile', 'soak', 'tracing'].includes(scenario))
      throw new Error(`unknown --scenario "${scenario}" (pg_net, latency, drain, graphile, soak, tracing)`);
  }
  const graphile = scenarios.has('graphile') ? await loadGraphileWorker() : null;
  if (scenarios.has('graphile') && !graphile) {
    console.log(`note: ${GRAPHILE_WORKER_MISSING}`);
    scenarios.delete('graphile');
    if (scenarios.size === 0) return;
  }
  if (graphile?.nodeRequired && !nodeSatisfies(graphile.nodeRequired)) {
    console.log(
      `note: graphile-worker ${graphile.version} declares Node ${graphile.nodeRequired}; this is ${process.version}` +
        ' (it loads and runs here, on a Node its authors no longer support)',
    );
  }
  const peerEvents = integer(values['peer-events'], 100_000, 'peer-events');
  const options: RunOptions = {
    scenarios,
    drains: scenarios.has('drain') ? [...drainCases(values)] : [],
    clients: integer(values.clients, 10, 'clients'),
    transactions: integer(values.transactions, 1000, 'transactions'),
    producerEndpoints: numbers(values['producer-endpoints'], [1, 10, 100]).map((count) => {
      if (!Number.isInteger(count) || count < 1)
        throw new Error(`--producer-endpoints takes positive integers, got ${count}`);
      return count;
    }),
    rate: integer(values.rate, 1000, 'rate'),
    seconds: integer(values.seconds, 10, 'seconds'),
    minutes: integer(values.minutes, 30, 'minutes'),
    graphile,
    peerEvents,
    tracingEvents: integer(values['tracing-events'], 20_000, 'tracing-events'),
  };
  // The peer's drain is compared with Hookline's drain of the same size, one worker, one endpoint.
  const peerDrain: DrainCaseOptions = { events: peerEvents, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 };
  if (graphile && !options.drains.some((drain) => drainLabel(drain) === drainLabel(peerDrain))) {
    options.drains.push(peerDrain);
  }
  if (options.minutes < 3) throw new Error('--minutes must be at least 3 (retention runs once a minute)');
  const cap = integer(values.cap, 10, 'cap');
  const repeat = integer(values.repeat, 1, 'repeat');

  const pgbench = findPgbench();
  if (!pgbench && (scenarios.has('pg_net') || scenarios.has('latency') || scenarios.has('graphile'))) {
    console.error(PGBENCH_MISSING);
    process.exitCode = 1;
    return;
  }

  const startedAt = new Date();
  const runId = startedAt.toISOString().replace(/[:.]/g, '-');
  const resultsDir = resolve(import.meta.dirname, 'results');
  await mkdir(resultsDir, { recursive: true });
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: roundedLoad(),
    node: process.version,
  };
  console.log(`Hookline benchmarks, ${startedAt.toISOString()}, commit ${gitCommit()}`);
  console.log(
    `machine: ${machine.cores} x ${machine.cpu}, ${machine.memoryGb} GB, load average at start ${machine.loadAverageAtStart.join(' ')}`,
  );

  let server: BenchDatabaseServer | undefined;
  let receiver: BenchReceiver | undefined;
  const rounds: Round[] = [];
  let soak: SoakResult | undefined;
  let soakError: string | undefined;
  let settings: Record<string, string> | undefined;
  try {
    const templateSql = values['template-sql'];
    server = values['database-url']
      ? await connectGivenDatabase(values['database-url'], { templateSql })
      : await startBenchDatabase({ templateSql });
    if (templateSql) console.log(`experiment: every case database after "${templateSql}"`);
    receiver = await startBenchReceiver();
    settings = await readServerSettings(server, Object.keys(BENCH_POSTGRES_SETTINGS));
    console.log(
      `PostgreSQL ${server.version} (${server.origin}; ${Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')})`,
    );
    if (server.postmasterPid === null) {
      console.log('note: PostgreSQL does not run on this machine (or not visibly): its CPU is not measured.');
    }
    if (values.profile && !server.statementsAvailable) {
      console.log('note: pg_stat_statements is not preloaded or may not be reset by this role: no statement tables.');
    }
    const workerEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name.startsWith('HOOKLINE_')),
    ) as Record<string, string>;
    const context: BenchContext = {
      server,
      receiver,
      pgbench,
      endpointCap: cap,
      notify: !values['no-notify'],
      workerEnv,
      profileDir: values.profile ? join(resultsDir, 'profiles', runId) : undefined,
      log: (line) => console.log(line),
    };
    const hasRoundScenarios = ['pg_net', 'latency', 'drain', 'graphile', 'tracing'].some((scenario) =>
      scenarios.has(scenario),
    );
    for (let round = 1; hasRoundScenarios && round <= repeat; round++) {
      rounds.push(await runRound(context, options, repeat > 1 ? `[${round}/${repeat}] ` : '', round));
    }
    if (scenarios.has('soak')) {
      console.log(`soak: ${options.rate}/s for ${options.minutes} min ...`);
      try {
        soak = await runSoak(context, { minutes: options.minutes, rate: options.rate });
      } catch (error) {
        soakError = `soak: ${(error as Error).message}`;
        console.error(`  failed: ${(error as Error).message}`);
      }
    }
  } finally {
    await receiver?.close();
    await server?.stop();
  }

  const cases = summarizeRounds(rounds.map((round) => round.cases));
  const producers = summarizeRounds(rounds.map((round) => round.producers));
  const producerParts = summarizeRounds(rounds.map((round) => round.producerParts));
  const peers = summarizeRounds(rounds.map((round) => round.peers));
  const errors = rounds.flatMap((round) => round.errors);
  if (soakError) errors.push(soakError);
  const loadAverageAtEnd = roundedLoad();
  if (cases.length > 0) console.log(`\n${casesTable(cases)}`);
  const traced = cases.filter((summary) => / tracing (off|on)$/.test(summary.name));
  if (traced.length > 0) console.log(`\nTracing off and on (one worker, one endpoint):\n${tracingTable(traced)}`);
  if (producers.length > 0)
    console.log(`\nProducer cost (pgbench ${options.clients} x ${options.transactions}):\n${producerTable(producers)}`);
  if (producerParts.length > 0)
    console.log(
      `\nWhat the trigger costs, in parts (no worker running; hookline.send is the row above):\n` +
        producerPartsTable(producerParts),
    );
  // The tracing scenario's drains are a comparison of their own, not drains the targets speak of.
  const judged = cases.filter((summary) => !/ tracing (off|on)$/.test(summary.name));
  const verdicts = judged.length > 0 ? judgeTargets(judged, producers, producerParts, { peers, peerEvents, soak }) : [];
  if (verdicts.length > 0)
    console.log(
      `\nTargets of issue 22, then those of issue 11 it kept, on PostgreSQL ${server?.version ?? '?'} (${repeat > 1 ? `medians of ${repeat} runs; ` : ''}` +
        `2 cores shared by receiver, Postgres, pgbench and workers):\n${targetsTable(verdicts)}`,
    );
  if (peers.length > 0)
    console.log(
      `\n${peerTable(peers, cases, { peerEvents, clients: options.clients, transactions: options.transactions })}`,
    );
  console.log(`\nload average at start ${machine.loadAverageAtStart.join(' ')}, at end ${loadAverageAtEnd.join(' ')}`);
  if (values.profile) console.log(profileReport(cases));
  if (errors.length > 0) console.log(`\nFailed cases:\n${errors.map((error) => `  - ${error}`).join('\n')}`);

  const { 'database-url': databaseUrl, ...shownOptions } = values;
  const header = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { ...machine, loadAverageAtEnd },
    // The URL may carry a password: only whether one was given is kept.
    postgres: { version: server?.version, origin: server?.origin, settings },
    options: { ...shownOptions, databaseUrlGiven: databaseUrl !== undefined },
  };
  if (rounds.length > 0) {
    const file = join(resultsDir, `${runId}.json`);
    await writeFile(
      file,
      `${JSON.stringify(
        {
          ...header,
          cases: cases.map(({ name, median, min, max, runs }) => ({ name, median, min, max, runs })),
          producers,
          producerParts,
          peers,
          targets: verdicts,
          errors,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nResults written to ${file}`);
  }
  if (soak) {
    console.log(
      `\nSoak on PostgreSQL ${server?.version ?? '?'}: ${soak.rate}/s offered for ${soak.minutes} min, retention ` +
        `${soak.retentionSeconds} s${soak.windows.scale === 1 ? '' : `, windows scaled by ${soak.minutes}/30`}: ` +
        `${soak.passed ? 'PASSED' : 'FAILED'}\n${soakVerdictTable(soak)}`,
    );
    if (soak.producerFailures.count > 0)
      console.log(`producers: ${soak.producerFailures.count} failed inserts, first: ${soak.producerFailures.first}`);
    const files = await writeSoakFiles({
      resultsDir,
      runId,
      result: soak,
      run: header,
      subtitle:
        `PostgreSQL ${server?.version ?? '?'} (${server?.origin ?? '?'}), commit ${header.commit}, ` +
        `${machine.cores} cores, load average ${machine.loadAverageAtStart[0]} at start, ${loadAverageAtEnd[0]} at end`,
    });
    console.log(`Soak series written to ${files.json}\nand drawn in ${files.svg}`);
  }
  if (errors.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * The tracing scenario side by side: what a worker pays for a span per attempt, and that a worker
 * with tracing off pays nothing (its numbers are the plain drain's; the difference between two runs
 * of the same case on this shared machine is the noise to read them against).
 */
function tracingTable(summaries: Summary<CaseResult>[]): string {
  const rows = summaries.map(({ name, median: result, runs }) => {
    const workerMicros = (result.workerCpuSeconds * 1e6) / Math.max(1, result.succeeded);
    return [
      name,
      result.deliveriesPerSecond.toLocaleString('en-US'),
      workerMicros.toFixed(0),
      result.cpuMicrosPerDelivery.toFixed(0),
      result.spansExported === undefined ? '-' : result.spansExported.toLocaleString('en-US'),
      String(runs.length),
    ];
  });
  const header = [
    'case',
    'deliveries/s',
    'worker CPU µs/delivery',
    'worker+PG CPU µs/delivery',
    'spans exported',
    'runs',
  ];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
