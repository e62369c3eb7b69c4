// Runs pgbench, the producer of the pg_net benchmark (10 clients x 1,000 inserts), with a custom
// script, and reads its TPS.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = [
  '/usr/lib/postgresql/15/bin/pgbench',
  '/usr/lib/postgresql/16/bin/pgbench',
  '/usr/lib/postgresql/17/bin/pgbench',
];

export function findPgbench(): string | null {
  if (process.env.PGBENCH && existsSync(process.env.PGBENCH)) return process.env.PGBENCH;
  const onPath = (process.env.PATH ?? '').split(':').map((dir) => join(dir, 'pgbench'));
  return [...CANDIDATES, ...onPath].find((candidate) => existsSync(candidate)) ?? null;
}

export const PGBENCH_MISSING =
  'pgbench was not found (looked in /usr/lib/postgresql/<15|16|17>/bin and PATH; set PGBENCH=/path/to/pgbench).\n' +
  'Install it with: apt-get install postgresql-15 (Debian 12 ships pgbench with the server; later releases in postgresql-client)\n' +
  '                 brew install libpq                   (macOS; then add $(brew --prefix libpq)/bin to PATH)\n' +
  'The pg_net and latency scenarios need it; run the others with: npm run bench -- --scenario=drain';

export interface PgbenchRun {
  tps: number;
  transactions: number;
  failed: number;
  startedAt: number;
  finishedAt: number;
  output: string;
}

export interface PgbenchOptions {
  binary: string;
  databaseUrl: string;
  script: string;
  clients: number;
  threads: number;
  /** Transactions per client (-t); or `seconds` (-T). */
  transactionsPerClient?: number;
  seconds?: number;
  /** Offered load in transactions per second (-R), for latency under a fixed rate. */
  rate?: number;
}

export async function runPgbench(options: PgbenchOptions): Promise<PgbenchRun> {
  const url = new URL(options.databaseUrl);
  const dir = await mkdtemp(join(tmpdir(), 'hookline-pgbench-'));
  const scriptFile = join(dir, 'script.sql');
  await writeFile(scriptFile, options.script);
  const args = [
    '--no-vacuum',
    `--client=${options.clients}`,
    `--jobs=${options.threads}`,
    `--file=${scriptFile}`,
    ...(options.transactionsPerClient ? [`--transactions=${options.transactionsPerClient}`] : []),
    ...(options.seconds ? [`--time=${options.seconds}`] : []),
    ...(options.rate ? [`--rate=${options.rate}`] : []),
    `--host=${url.hostname}`,
    `--port=${url.port}`,
    `--username=${decodeURIComponent(url.username)}`,
    url.pathname.slice(1),
  ];
  const startedAt = Date.now();
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        options.binary,
        args,
        { env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) }, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`pgbench failed: ${error.message}\n${stderr}`));
          else resolve(`${stdout}\n${stderr}`);
        },
      );
    });
    const finishedAt = Date.now();
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1] ?? NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`could not read TPS from pgbench's output:\n${output}`);
    return { tps, transactions, failed, startedAt, finishedAt, output };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
