// `npm run bench`: Hookline's benchmarks, from a fresh clone, on this machine only (loopback).
// Starts an embedded PostgreSQL in a temp folder (durable settings), migrates it, runs a loopback
// receiver and workers as child processes, prints tables and writes JSON to bench/results/.
// `npm run bench -- --help` lists the options.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_POSTGRES_SETTINGS, startBenchDatabase, type BenchDatabaseServer } from './bench-database';
import { startBenchReceiver, type BenchReceiver } from './bench-receiver';
import { findPgbench, PGBENCH_MISSING } from './pgbench';
import { casesTable, judgeTargets, profileReport, targetsTable } from './report';
import {
  runBaselineProducer,
  runDrainCase,
  runLiveCase,
  type BenchContext,
  type CaseResult,
  type DrainCaseOptions,
} from './scenarios';

const HELP = `Usage: npm run bench -- [options]

  --scenario=LIST    pg_net,latency,drain (default: all three)
  --events=LIST      drain matrix: events queued per case, e.g. 10000,100000,1000000
  --workers=LIST     drain matrix: worker processes, e.g. 1,2,4
  --endpoints=LIST   drain matrix: endpoints the events are spread over, e.g. 1,100
  --delay=LIST       drain matrix: receiver answer delay in ms, e.g. 0,50
  --fail=LIST        drain matrix: share of requests the receiver answers 500, e.g. 0,0.1
                     Giving any matrix option runs every combination of the lists (missing
                     ones default to 10000 / 1 / 1 / 0 / 0). Without them a default set runs:
                     100k x1 worker, 10k x2 and x4 workers, 10k over 100 endpoints (at once and
                     with a 50 ms receiver), 10k with 10% failures.
  --cap=N            max_concurrency of every bench endpoint = its per-worker connection cap (10)
  --clients=N        pgbench clients for the pg_net scenario (10)
  --transactions=N   pgbench inserts per client for the pg_net scenario (1000)
  --rate=N           offered inserts/s for the latency scenario (1000)
  --seconds=N        duration of the latency scenario (10)
  --no-notify        diagnostic: disable the NOTIFY trigger on deliveries, so workers wake by
                     polling only (set HOOKLINE_POLL_INTERVAL_MS too); shows what NOTIFY costs producers
  --profile          node --cpu-prof for the workers and pg_stat_statements tables, printed per case
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

const DEFAULT_DRAINS: DrainCaseOptions[] = [
  { events: 100_000, workers: 1, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 10_000, workers: 2, endpoints: 1, delayMs: 0, failRate: 0 },
  { events: 10_000, workers: 4, endpoints: 1, delayMs: 0, failRate: 0 },
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      events: { type: 'string' },
      workers: { type: 'string' },
      endpoints: { type: 'string' },
      delay: { type: 'string' },
      fail: { type: 'string' },
      cap: { type: 'string' },
      clients: { type: 'string' },
      transactions: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'no-notify': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const scenarios = new Set((values.scenario ?? 'pg_net,latency,drain').split(',').map((name) => name.trim()));
  for (const scenario of scenarios) {
    if (!['pg_net', 'latency', 'drain'].includes(scenario))
      throw new Error(`unknown --scenario "${scenario}" (pg_net, latency, drain)`);
  }
  const drains = scenarios.has('drain') ? drainCases(values) : [];
  const cap = integer(values.cap, 10, 'cap');
  const clients = integer(values.clients, 10, 'clients');
  const transactions = integer(values.transactions, 1000, 'transactions');
  const rate = integer(values.rate, 1000, 'rate');
  const seconds = integer(values.seconds, 10, 'seconds');

  const pgbench = findPgbench();
  if (!pgbench && (scenarios.has('pg_net') || scenarios.has('latency'))) {
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
    loadAverageAtStart: loadavg().map((load) => Math.round(load * 100) / 100),
    node: process.version,
  };
  console.log(`Hookline benchmarks, ${startedAt.toISOString()}, commit ${gitCommit()}`);
  console.log(
    `machine: ${machine.cores} x ${machine.cpu}, ${machine.memoryGb} GB, load average ${machine.loadAverageAtStart.join(' ')}`,
  );

  let server: BenchDatabaseServer | undefined;
  let receiver: BenchReceiver | undefined;
  const results: CaseResult[] = [];
  const errors: string[] = [];
  try {
    server = await startBenchDatabase();
    receiver = await startBenchReceiver();
    console.log(
      `PostgreSQL ${server.version} (embedded, ${Object.entries(BENCH_POSTGRES_SETTINGS)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')})`,
    );
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
    const attempt = async (label: string, run: () => Promise<CaseResult>) => {
      console.log(`${label} ...`);
      try {
        const result = await run();
        results.push(result);
        console.log(
          `  ${result.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s, ${(result.successRate * 100).toFixed(2)}% succeeded`,
        );
      } catch (error) {
        errors.push(`${label}: ${(error as Error).message}`);
        console.error(`  failed: ${(error as Error).message}`);
      }
    };

    if (scenarios.has('pg_net')) {
      console.log(`pg_net scenario: pgbench -c ${clients} -j 2 -t ${transactions}, no trigger ...`);
      const tpsWithoutTrigger = await runBaselineProducer(context, clients, transactions);
      console.log(`  ${tpsWithoutTrigger.toFixed(0)} TPS without a trigger`);
      for (const mode of ['send', 'http_post'] as const) {
        await attempt(`pg_net scenario with a hookline.${mode} trigger`, () =>
          runLiveCase(context, {
            kind: 'pg_net',
            mode,
            clients,
            transactionsPerClient: transactions,
            tpsWithoutTrigger,
          }),
        );
      }
    }
    if (scenarios.has('latency')) {
      await attempt(`latency at ${rate}/s offered for ${seconds} s`, () =>
        runLiveCase(context, { kind: 'latency', mode: 'send', clients: 4, rate, seconds }),
      );
    }
    for (const drain of drains) {
      await attempt(
        `drain ${drain.events} events, ${drain.workers} worker(s), ${drain.endpoints} endpoint(s), ` +
          `receiver ${drain.delayMs} ms, ${drain.failRate * 100}% failing`,
        () => runDrainCase(context, drain),
      );
    }
  } finally {
    await receiver?.close();
    await server?.stop();
  }

  console.log(`\n${casesTable(results)}`);
  const verdicts = judgeTargets(results);
  console.log(`\nTargets (2 cores shared by receiver, Postgres, pgbench and workers):\n${targetsTable(verdicts)}`);
  if (values.profile) console.log(profileReport(results));
  if (errors.length > 0) console.log(`\nFailed cases:\n${errors.map((error) => `  - ${error}`).join('\n')}`);

  const file = join(resultsDir, `${runId}.json`);
  await writeFile(
    file,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        commit: gitCommit(),
        machine: { ...machine, loadAverageAtEnd: loadavg().map((load) => Math.round(load * 100) / 100) },
        postgres: { settings: BENCH_POSTGRES_SETTINGS },
        options: values,
        results,
        targets: verdicts,
        errors,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nResults written to ${file}`);
  if (errors.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
