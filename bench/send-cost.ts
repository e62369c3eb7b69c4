// What one hookline.send costs PostgreSQL, without pgbench's noise: --calls calls in one statement of
// one backend (no commit, no client round trip per call), as µs and WAL bytes a call, without and
// with an idempotency key. pgbench's TPS spreads 5-15 points between rounds on these machines; this
// measure separated a 14 % change that pgbench could not (bench/README.md, "ids in the C collation").
// The payload is the pg_net scenario's to_jsonb(NEW) of a spice_harvests row.
//
//   npm run bench:send                                       (the embedded 18)
//   npm run bench:send -- --database-url=postgresql://...    (e.g. bench/start-debian-postgres.ts)
//   npm run bench:send -- --database-url=... --baseline-database-url=postgresql://.../before
//
// --baseline-database-url names a database on the same server, migrated by another checkout (the code
// before a change: `DATABASE_URL=... npm run migrate` there). Every round then measures both, in
// alternating order, and the run prints after / before: the machine's swing (2x within an hour here)
// moves both alike. The bench adds an app and an event type to that database and leaves them.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startBenchDatabase, type BenchDatabaseServer } from './bench-database';
import { walBytesSince, walPosition } from './case-measurement';
import { connectGivenDatabase } from './given-database';
import { table } from './report';
import { median } from './repeat';

const APP_ID = 'app_send_cost_bench';

const VARIANTS = [
  { label: 'no idempotency key', key: 'NULL' },
  // A fresh key a call, as a producer passing an id of its own would (38 characters).
  { label: 'an idempotency key', key: `'order-' || md5(random()::text)` },
] as const;

interface Sample {
  microsPerCall: number;
  walPerCall: number;
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** The app, its event type, and the polling stand-in (producers then skip the NOTIFY, as beside a worker). */
async function prepare(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO hookline.apps (id, name) VALUES ($1, 'send cost') ON CONFLICT DO NOTHING`, [
      APP_ID,
    ]);
    await client.query(
      `INSERT INTO hookline.event_types (app_id, name) VALUES ($1, 'bench.e0') ON CONFLICT DO NOTHING`,
      [APP_ID],
    );
    await client.query(
      `INSERT INTO hookline.polling_workers (worker_id, until) VALUES ('bench-no-worker', now() + interval '10 hours')
       ON CONFLICT (worker_id) DO UPDATE SET until = excluded.until`,
    );
  } finally {
    await client.end();
  }
}

async function measure(url: string, key: string, calls: number): Promise<Sample> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const walBefore = await walPosition(client);
    const startedAt = process.hrtime.bigint();
    await client.query(
      `SELECT count(hookline.send($1, 'bench.e0',
                jsonb_build_object('id', g, 'planet', 'Arrakis', 'tonnes', random() * 100, 'harvested_at', now()),
                ${key}))
         FROM generate_series(1, $2::int) AS g`,
      [APP_ID, calls],
    );
    const micros = Number(process.hrtime.bigint() - startedAt) / 1000;
    return { microsPerCall: micros / calls, walPerCall: (await walBytesSince(client, walBefore)) / calls };
  } finally {
    await client.end();
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      'baseline-database-url': { type: 'string' },
      calls: { type: 'string', default: '50000' },
      rounds: { type: 'string', default: '5' },
    },
  });
  const calls = Number(values.calls);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(calls) || calls < 1)
    throw new Error(`--calls must be a positive integer, got "${values.calls}"`);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`--rounds must be a positive integer, got "${values.rounds}"`);
  }
  const baselineUrl = values['baseline-database-url'];
  if (baselineUrl && !values['database-url']) {
    throw new Error('--baseline-database-url needs --database-url: both databases must be on one server');
  }
  const server: BenchDatabaseServer = values['database-url']
    ? await connectGivenDatabase(values['database-url'])
    : await startBenchDatabase();
  console.log(`load average at start ${loadAverage()}`);
  console.log(`PostgreSQL ${server.version} (${server.origin}); ${calls.toLocaleString('en-US')} calls a statement`);
  const samples = new Map<string, Sample[]>();
  const samplesOf = (database: string, variant: string) => samples.get(`${database}\u0000${variant}`) ?? [];
  const record = (database: string, variant: string, sample: Sample) =>
    samples.set(`${database}\u0000${variant}`, [...samplesOf(database, variant), sample]);
  try {
    const currentUrl = await server.create('send_cost');
    const databases = [{ name: 'this checkout', url: currentUrl }];
    if (baselineUrl) databases.push({ name: 'baseline', url: baselineUrl });
    for (const { url } of databases) await prepare(url);
    for (let round = 0; round < rounds; round++) {
      // Alternate which database goes first, so neither always runs on the warmer machine.
      const order = round % 2 === 0 ? databases : [...databases].reverse();
      for (const variant of VARIANTS) {
        for (const database of order) {
          const sample = await measure(database.url, variant.key, calls);
          record(database.name, variant.label, sample);
          console.log(
            `  round ${round + 1}, ${database.name}, ${variant.label}: ${sample.microsPerCall.toFixed(1)} µs, ` +
              `${Math.round(sample.walPerCall)} B of WAL a call`,
          );
        }
      }
    }
    const rows: string[][] = [];
    for (const variant of VARIANTS) {
      for (const database of databases) {
        const taken = samplesOf(database.name, variant.label);
        const micros = taken.map((sample) => sample.microsPerCall);
        rows.push([
          variant.label,
          database.name,
          median(micros).toFixed(1),
          `${Math.min(...micros).toFixed(1)}-${Math.max(...micros).toFixed(1)}`,
          Math.round(median(taken.map((sample) => sample.walPerCall))).toLocaleString('en-US'),
        ]);
      }
      if (baselineUrl) {
        const [after, before] = databases.map((database) =>
          samplesOf(database.name, variant.label).map((sample) => sample.microsPerCall),
        );
        const lower = after!.filter((micros, round) => micros < before![round]!).length;
        rows.push([
          variant.label,
          'this / baseline',
          `${((median(after!) / median(before!)) * 100).toFixed(1)} %`,
          `lower in ${lower} of ${rounds} rounds`,
          '',
        ]);
      }
    }
    console.log(
      `\nhookline.send, medians of ${rounds}:\n` +
        table([['call', 'database', 'µs a call', 'min-max', 'WAL B a call'], ...rows]),
    );
  } finally {
    await server.drop('send_cost').catch(() => {});
    // Drops the template; stops the server only if the bench started it.
    await server.stop();
  }
  console.log(`\nload average at end ${loadAverage()}`);
}

await main();
