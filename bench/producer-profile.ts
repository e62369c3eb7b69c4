// Where a producer's transaction spends PostgreSQL's CPU (issue 22's producer target), by `perf`.
// The pg_net scenario's pgbench (10 clients inserting spice_harvests rows) with no trigger, then with
// each trigger in turn, no worker running: an empty PL/pgSQL call, the payload into an unindexed inbox
// (an experiment), the message row alone, and hookline.send. For each: TPS and its share of no
// trigger, PostgreSQL's CPU per transaction (/proc), and, from `perf record -a -g` over the run, the µs
// per transaction spent in the trigger, then hookline.send's largest parts. pgbench's TPS spreads 5-15
// points between rounds; the CPU that perf puts on a function moves far less, which is how the CHECK
// constraints on every time partition were found (bench/README.md).
//
//   npm run bench:producer-profile -- --database-url=postgresql://...   (bench/start-debian-postgres.ts)
//   npm run bench:producer-profile                                     (the embedded 18: CPU and TPS only)
//
// perf needs to read the symbols of the `postgres` binary: Debian's keeps them, the embedded 18's is
// stripped (its rows then say so). Recording every CPU (-a) needs root or perf_event_paranoid <= 0.
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startBenchDatabase, type BenchDatabaseServer } from './bench-database';
import { walBytesSince, walPosition } from './case-measurement';
import { connectGivenDatabase } from './given-database';
import { findPgbench, PGBENCH_MISSING, runPgbench } from './pgbench';
import { table } from './report';
import {
  createApp,
  createEndpoints,
  installProducerPart,
  POLLING_STAND_IN,
  PRODUCER_PARTS,
  SPICE_INSERT,
  SPICE_TABLE,
  triggerCalling,
  type ProducerPartSpec,
} from './scenarios';
import { postgresCpuSeconds } from './worker-processes';

const SAMPLE_HZ = 2_000;

interface Variant {
  label: string;
  /** The trigger's call; none for the baseline. */
  call?: string;
  /** A PL/pgSQL body for bench_send_part (PRODUCER_PARTS), and the tables it needs. */
  part?: ProducerPartSpec;
}

const VARIANTS: Variant[] = [
  { label: 'no trigger' },
  { label: PRODUCER_PARTS.call.label, part: PRODUCER_PARTS.call },
  { label: PRODUCER_PARTS.inbox.label, part: PRODUCER_PARTS.inbox },
  { label: 'the message row alone', part: PRODUCER_PARTS.written },
  { label: 'hookline.send', call: `PERFORM hookline.send($APP, 'bench.e0', to_jsonb(NEW));` },
];

interface Profile {
  /** Samples of any postgres process, per transaction, in µs. */
  postgresMicros: number;
  triggerMicros: number;
  sendMicros: number;
  /** Share of samples whose stack perf could name down to PostgresMain: low for a stripped binary. */
  symbolsShare: number;
  /** hookline.send's body by the frames under it (three deep), largest first, µs per transaction. */
  sendParts: [string, number][];
}

async function prepare(url: string, variant: Variant): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(SPICE_TABLE);
    const appId = await createApp(client);
    // Nothing is delivered (no worker runs): the endpoint's address is never called.
    await createEndpoints(client, appId, 'http://127.0.0.1:9', 1, 10, true);
    // As in the bench's no-worker producer cases: producers skip the NOTIFY.
    await client.query(POLLING_STAND_IN);
    if (variant.part) {
      await installProducerPart(client, appId, variant.part);
    } else if (variant.call) {
      await client.query(triggerCalling(variant.call.replace('$APP', `'${appId}'`)));
    }
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

function run(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(binary, args, (error, stdout, stderr) =>
      error ? reject(new Error(stderr || error.message)) : resolve(stdout),
    ),
  );
}

async function perfAvailable(): Promise<string | null> {
  try {
    await run('perf', ['record', '-a', '-o', '/dev/null', '--', 'true']);
    return null;
  } catch (error) {
    return `perf cannot record every CPU here (${(error as Error).message.split('\n')[0]}): TPS and CPU only`;
  }
}

/** Folds `perf script` output: per sample, the frames of a postgres process, innermost first. */
async function readProfile(file: string, transactions: number): Promise<Profile> {
  const script = spawn('perf', ['script', '-i', file, '--comm', 'postgres', '-F', 'comm,ip,sym'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let samples = 0;
  let inTrigger = 0;
  let inSend = 0;
  let named = 0;
  const parts = new Map<string, number>();
  let frames: string[] | null = null;
  const fold = () => {
    if (!frames) return;
    samples++;
    if (frames.includes('PostgresMain')) named++;
    if (frames.includes('plpgsql_exec_trigger')) inTrigger++;
    // hookline.send is the only SECURITY DEFINER function on this path: fmgr_security_definer calls it.
    const definer = frames.lastIndexOf('fmgr_security_definer');
    if (definer >= 0) {
      inSend++;
      const body = frames.slice(0, definer).lastIndexOf('plpgsql_exec_function');
      const below = body >= 0 ? frames.slice(Math.max(0, body - 3), body).reverse() : [];
      const key = below.length > 0 ? below.join(' > ') : '(PL/pgSQL itself)';
      parts.set(key, (parts.get(key) ?? 0) + 1);
    }
  };
  for await (const line of createInterface({ input: script.stdout })) {
    if (!line.startsWith('\t')) {
      fold();
      frames = line.trim() ? [] : null;
      continue;
    }
    const symbol = line.trim().split(/\s+/)[1];
    if (frames && symbol && symbol !== '[unknown]' && !symbol.startsWith('0x')) frames.push(symbol);
  }
  fold();
  const micros = (count: number) => (count * 1e6) / SAMPLE_HZ / transactions;
  return {
    postgresMicros: micros(samples),
    triggerMicros: micros(inTrigger),
    sendMicros: micros(inSend),
    symbolsShare: samples === 0 ? 0 : named / samples,
    sendParts: [...parts.entries()].sort((a, b) => b[1] - a[1]).map(([key, count]) => [key, micros(count)]),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      clients: { type: 'string', default: '10' },
      transactions: { type: 'string', default: '3000' },
    },
  });
  const clients = Number(values.clients);
  const perClient = Number(values.transactions);
  const pgbench = findPgbench();
  if (!pgbench) throw new Error(PGBENCH_MISSING);
  const perfNote = await perfAvailable();
  if (perfNote) console.log(perfNote);
  const server: BenchDatabaseServer = values['database-url']
    ? await connectGivenDatabase(values['database-url'])
    : await startBenchDatabase();
  const folder = await mkdtemp(join(tmpdir(), 'hookline-producer-profile-'));
  const transactions = clients * perClient;
  const rows: string[][] = [];
  console.log(
    `load average at start ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  let baselineTps = NaN;
  let sendProfile: Profile | null = null;
  try {
    console.log(`PostgreSQL ${server.version} (${server.origin}); pgbench ${clients} x ${perClient}, no worker`);
    for (const [index, variant] of VARIANTS.entries()) {
      const name = `producer_profile_${index}`;
      const url = await server.create(name);
      try {
        await prepare(url, variant);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const walBefore = await walPosition(client);
        const cpuBefore = server.postmasterPid === null ? NaN : await postgresCpuSeconds(server.postmasterPid);
        const perfFile = join(folder, `${index}.data`);
        const perf = perfNote
          ? null
          : spawn('perf', ['record', '-F', String(SAMPLE_HZ), '-a', '-g', '-o', perfFile, '--', 'sleep', '3600'], {
              stdio: 'ignore',
            });
        if (perf) await new Promise((resolve) => setTimeout(resolve, 500));
        const pgbenchRun = await runPgbench({
          binary: pgbench,
          databaseUrl: url,
          script: SPICE_INSERT,
          clients,
          threads: 2,
          transactionsPerClient: perClient,
        });
        if (perf) {
          const exited = new Promise((resolve) => perf.once('exit', resolve));
          perf.kill('SIGINT');
          await exited;
        }
        const cpuMicros =
          server.postmasterPid === null
            ? NaN
            : (((await postgresCpuSeconds(server.postmasterPid)) - cpuBefore) * 1e6) / transactions;
        const walPerTransaction = (await walBytesSince(client, walBefore)) / transactions;
        await client.end();
        if (index === 0) baselineTps = pgbenchRun.tps;
        const profile = perf ? await readProfile(perfFile, transactions) : null;
        if (variant.call) sendProfile = profile;
        // The embedded 18's binary is stripped: perf names almost none of its frames.
        const noSymbols = profile !== null && profile.symbolsShare < 0.5;
        rows.push([
          variant.label,
          Math.round(pgbenchRun.tps).toLocaleString('en-US'),
          index === 0 ? '100' : ((pgbenchRun.tps / baselineTps) * 100).toFixed(1),
          Number.isNaN(cpuMicros) ? '-' : cpuMicros.toFixed(0),
          index === 0 || !profile ? '-' : noSymbols ? 'no symbols' : profile.triggerMicros.toFixed(1),
          Math.round(walPerTransaction).toLocaleString('en-US'),
        ]);
        console.log(`  ${variant.label}: ${Math.round(pgbenchRun.tps)} TPS`);
      } finally {
        await server.drop(name);
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
    if (!values['database-url']) await server.stop();
  }
  console.log(
    '\n' +
      table([
        [
          'trigger',
          'TPS',
          '% of no trigger',
          'PostgreSQL CPU µs / transaction',
          'µs in the trigger (perf)',
          'WAL B / transaction',
        ],
        ...rows,
      ]),
  );
  if (sendProfile && sendProfile.symbolsShare < 0.5) {
    console.log(
      '\nperf could not name the frames of this postgres binary (stripped, as the embedded 18 is): run against a ' +
        "PostgreSQL that keeps its symbols for the breakdown, e.g. Debian's (bench/start-debian-postgres.ts).",
    );
  } else if (sendProfile && sendProfile.sendMicros > 0) {
    console.log(`\nhookline.send: ${sendProfile.sendMicros.toFixed(1)} µs a call; its largest parts (µs a call):`);
    console.log(
      table([
        ['µs', 'frames under hookline.send'],
        ...sendProfile.sendParts.slice(0, 12).map(([key, micros]) => [micros.toFixed(2), key]),
      ]),
    );
  }
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`\nload average at end ${load}`);
}

await main();
