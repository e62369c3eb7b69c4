// The benchmark's PostgreSQL: the embedded one, in a temp folder removed at the end, with the
// durability a real deployment keeps (fsync, synchronous_commit and full_page_writes on: every
// commit waits for its WAL flush), so producer TPS means what it would in production. Every case
// gets a fresh database cloned from one migrated template, so no case inherits another's bloat.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  freePort,
  removeOrphanedTempServers,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../lib/embedded-postgres';
import { migrate } from '../lib/migrate';
import { withDatabase } from '../lib/pg';

const TEMPLATE = 'hookline_bench_template';
const BENCH_SERVER_PREFIX = 'hookline-bench-pg-';

/** Settings of the benchmark server; printed with the results. Durability settings stay at their defaults. */
export const BENCH_POSTGRES_SETTINGS: Record<string, string> = {
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  shared_buffers: '512MB',
  // 1M queued events write ~2 GB of WAL; fewer forced checkpoints, as a tuned server would have.
  max_wal_size: '4GB',
  max_connections: '200',
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
};

export interface BenchDatabaseServer {
  maintenanceUrl: string;
  postmasterPid: number;
  version: string;
  /** A fresh, migrated database (pg_stat_statements installed); dropped by `drop`. */
  create(name: string): Promise<string>;
  drop(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startBenchDatabase(): Promise<BenchDatabaseServer> {
  for (const folder of await removeOrphanedTempServers(BENCH_SERVER_PREFIX)) {
    console.log(`Stopped and removed ${folder}: the embedded PostgreSQL of a benchmark that was killed.`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), BENCH_SERVER_PREFIX));
  let handle: EmbeddedPostgresHandle;
  try {
    handle = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'pg'),
      port: await freePort(),
      settings: BENCH_POSTGRES_SETTINGS,
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const maintenanceUrl = handle.connectionString;
  const postmasterPid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  await admin(maintenanceUrl, [`CREATE DATABASE ${TEMPLATE}`]);
  const templateUrl = withDatabase(maintenanceUrl, TEMPLATE);
  await migrate(templateUrl);
  const [, version] = await admin(templateUrl, ['CREATE EXTENSION pg_stat_statements', 'SHOW server_version']);
  return {
    maintenanceUrl,
    postmasterPid,
    version: String(version ?? ''),
    async create(name) {
      await admin(maintenanceUrl, [
        `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
        `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`,
      ]);
      return withDatabase(maintenanceUrl, name);
    },
    async drop(name) {
      await admin(maintenanceUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    },
    async stop() {
      await handle.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs statements one by one; returns the first column of each statement's last row. */
async function admin(url: string, statements: string[]): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const values: unknown[] = [];
    for (const statement of statements) {
      const { rows } = await client.query<Record<string, unknown>>(statement);
      const last = rows.at(-1);
      values.push(last ? Object.values(last)[0] : undefined);
    }
    return values;
  } finally {
    await client.end();
  }
}

export interface StatementCost {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  rows: number;
}

/** The statements that cost Postgres the most execution time since the last reset. */
export async function topStatements(client: pg.ClientBase, limit = 8): Promise<StatementCost[]> {
  const { rows } = await client.query<{
    query: string;
    calls: number;
    total_ms: number;
    mean_ms: number;
    rows: number;
  }>(
    `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time AS total_ms,
            mean_exec_time AS mean_ms, rows
       FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND query NOT ILIKE '%pg_stat_statements%'
      ORDER BY total_exec_time DESC
      LIMIT $1`,
    [limit],
  );
  return rows.map((row) => ({
    query: row.query.length > 160 ? `${row.query.slice(0, 157)}...` : row.query,
    calls: Number(row.calls),
    totalMs: Math.round(row.total_ms),
    meanMs: Math.round(row.mean_ms * 1000) / 1000,
    rows: Number(row.rows),
  }));
}
