// The benchmark's PostgreSQL. By default the embedded one, in a temp folder removed at the end, with
// the durability a real deployment keeps (fsync, synchronous_commit and full_page_writes on: every
// commit waits for its WAL flush), so producer TPS means what it would in production. With
// --database-url, a server the user runs (bench/given-database.ts). Either way every case gets a
// fresh database cloned from one migrated template, so no case inherits another's bloat.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  freePort,
  removeOrphanedTempServers,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../lib/database/embedded-postgres';
import { migrate } from '../lib/database/migrate';
import { withDatabase } from '../lib/database/pg';

// Every database the benchmark creates starts with this, so that on a server given by --database-url
// it can only ever drop its own.
const DATABASE_PREFIX = 'hookline_bench_';
const TEMPLATE = `${DATABASE_PREFIX}template`;
const BENCH_SERVER_PREFIX = 'hookline-bench-pg-';

/**
 * Settings of the benchmark server; printed with the results. Durability settings stay at their
 * defaults. bench/start-debian-postgres.ts starts the Debian PostgreSQL 15 with the same ones.
 */
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
  /** The postmaster's pid when it runs on this machine (CPU is read from /proc), else null. */
  postmasterPid: number | null;
  version: string;
  /** "embedded" or "given by --database-url", for the printed header. */
  origin: string;
  /** Whether pg_stat_statements can be read and reset in the case databases (for --profile). */
  statementsAvailable: boolean;
  /** Whether pg_walinspect can break a case's WAL down by record type (for --profile). */
  walInspectAvailable: boolean;
  /** A fresh, migrated database named hookline_bench_<name>; dropped by `drop`. */
  create(name: string): Promise<string>;
  drop(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** SQL run in the migrated template, for experiments on every case database (bench --template-sql). */
export interface TemplateOptions {
  templateSql?: string;
}

export async function startBenchDatabase(options: TemplateOptions = {}): Promise<BenchDatabaseServer> {
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
  const postmasterPid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return serveCaseDatabases({
    ...options,
    maintenanceUrl: handle.connectionString,
    postmasterPid,
    origin: 'embedded',
    async stopServer() {
      await handle.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
}

export interface CaseDatabaseHost extends TemplateOptions {
  maintenanceUrl: string;
  postmasterPid: number | null;
  origin: string;
  /** Called after the template is dropped. */
  stopServer(): Promise<void>;
}

/** Migrates the template on `host` and hands out case databases cloned from it. */
export async function serveCaseDatabases(host: CaseDatabaseHost): Promise<BenchDatabaseServer> {
  const { maintenanceUrl } = host;
  // A template left by a killed run on a given server is stale (older migrations): start afresh.
  await admin(maintenanceUrl, [`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`, `CREATE DATABASE ${TEMPLATE}`]);
  const templateUrl = withDatabase(maintenanceUrl, TEMPLATE);
  await migrate(templateUrl);
  if (host.templateSql) await admin(templateUrl, [host.templateSql]);
  const [version] = await admin(templateUrl, ['SHOW server_version']);
  const statementsAvailable = await installStatements(templateUrl);
  const walInspectAvailable = await installWalInspect(templateUrl);
  const databaseName = (name: string) => `${DATABASE_PREFIX}${name.replace(/^bench_/, '')}`;
  return {
    maintenanceUrl,
    postmasterPid: host.postmasterPid,
    version: String(version ?? ''),
    origin: host.origin,
    statementsAvailable,
    walInspectAvailable,
    async create(name) {
      const database = databaseName(name);
      await admin(maintenanceUrl, [
        `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`,
        `CREATE DATABASE ${database} TEMPLATE ${TEMPLATE}`,
      ]);
      return withDatabase(maintenanceUrl, database);
    },
    async drop(name) {
      await admin(maintenanceUrl, [`DROP DATABASE IF EXISTS ${databaseName(name)} WITH (FORCE)`]);
    },
    async stop() {
      await admin(maintenanceUrl, [`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`]).catch(() => {});
      await host.stopServer();
    },
  };
}

/**
 * pg_stat_statements in the template, if the server preloads it and we may reset it (a superuser, or
 * a role granted pg_stat_statements_reset). Without it --profile shows no statement table; nothing
 * else depends on it.
 */
async function installStatements(templateUrl: string): Promise<boolean> {
  try {
    await admin(templateUrl, [
      'CREATE EXTENSION IF NOT EXISTS pg_stat_statements',
      'SELECT count(*) FROM pg_stat_statements',
      'SELECT pg_stat_statements_reset()',
    ]);
    return true;
  } catch {
    await admin(templateUrl, ['DROP EXTENSION IF EXISTS pg_stat_statements']).catch(() => {});
    return false;
  }
}

/**
 * pg_walinspect (PostgreSQL 15+, superuser or pg_read_server_files) in the template: --profile then
 * shows which records a case's WAL is made of (heap inserts, index inserts, full-page images ...).
 */
async function installWalInspect(templateUrl: string): Promise<boolean> {
  try {
    await admin(templateUrl, [
      'CREATE EXTENSION IF NOT EXISTS pg_walinspect',
      "SELECT has_function_privilege('pg_get_wal_stats(pg_lsn, pg_lsn, boolean)', 'EXECUTE')",
    ]);
    return true;
  } catch {
    await admin(templateUrl, ['DROP EXTENSION IF EXISTS pg_walinspect']).catch(() => {});
    return false;
  }
}

/** Runs statements one by one; returns the first column of each statement's last row. */
export async function admin(url: string, statements: string[]): Promise<unknown[]> {
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

/** Forgets the statement counts of every database, so the next read covers one case only. */
export async function resetStatements(server: BenchDatabaseServer, client: pg.ClientBase): Promise<void> {
  if (server.statementsAvailable) await client.query('SELECT pg_stat_statements_reset()');
}

export interface WalRecordShare {
  /** "Heap/INSERT", "Btree/INSERT_LEAF", ... as pg_walinspect names them. */
  record: string;
  count: number;
  /** Record bytes plus full-page images, in total. */
  bytes: number;
  fullPageImageBytes: number;
}

/** The record types that made up the WAL from `since` to what is flushed, largest first (pg_walinspect; on
 * PostgreSQL 15 it refuses an end past the flushed position: "cannot accept future end LSN"). */
export async function walRecordShares(
  server: BenchDatabaseServer,
  client: pg.ClientBase,
  since: string,
  limit = 12,
): Promise<WalRecordShare[]> {
  if (!server.walInspectAvailable) return [];
  const { rows } = await client.query<{ record: string; count: string; bytes: string; fpi: string }>(
    `SELECT "resource_manager/record_type" AS record, count::text, combined_size::text AS bytes,
            fpi_size::text AS fpi
       FROM pg_get_wal_stats($1::pg_lsn, pg_current_wal_flush_lsn(), true)
      WHERE count > 0
      ORDER BY combined_size DESC
      LIMIT $2`,
    [since, limit],
  );
  return rows.map((row) => ({
    record: row.record,
    count: Number(row.count),
    bytes: Number(row.bytes),
    fullPageImageBytes: Number(row.fpi),
  }));
}

export interface WalRelationShare {
  /** The table or index the record changed (a partition's root: hookline.deliveries, not a period). */
  relation: string;
  count: number;
  /** Record bytes plus full-page images, in total. */
  bytes: number;
}

/**
 * The relations that the WAL from `since` to now changed, largest first: each record counted once, on
 * the first block it changed (pg_get_wal_block_info, PostgreSQL 16+; none on 15). Which index costs
 * what is the question the WAL target asks (issue 22: 8.26 B-tree leaf inserts of ~101 B per event).
 * Records that change no block (commits) are left out.
 */
export async function walRelationShares(
  server: BenchDatabaseServer,
  client: pg.ClientBase,
  since: string,
  limit = 16,
): Promise<WalRelationShare[]> {
  if (!server.walInspectAvailable) return [];
  const { rows: version } = await client.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
  if (version[0]!.v < 160000) return [];
  const { rows } = await client.query<{ relation: string; count: string; bytes: string }>(
    `WITH records AS (
       SELECT DISTINCT ON (b.start_lsn) b.reltablespace, b.relfilenode, b.reldatabase, b.record_length
         FROM pg_get_wal_block_info($1::pg_lsn, pg_current_wal_flush_lsn(), false) AS b
        ORDER BY b.start_lsn, b.block_id
     ), named AS (
       SELECT r.record_length,
              CASE WHEN r.reldatabase = 0 THEN 'shared catalogs'
                   WHEN r.reldatabase <> (SELECT oid FROM pg_database WHERE datname = current_database())
                     THEN 'another database'
                   ELSE coalesce(pg_partition_root(rel)::text, rel::text, 'dropped since') END AS relation
         FROM records AS r
         LEFT JOIN LATERAL (SELECT pg_filenode_relation(
                              CASE WHEN r.reltablespace = (SELECT dattablespace FROM pg_database
                                                            WHERE datname = current_database())
                                   THEN 0 ELSE r.reltablespace END,
                              r.relfilenode) AS rel) AS f ON r.reldatabase <> 0
     )
     SELECT relation, count(*)::text AS count, sum(record_length)::text AS bytes
       FROM named
      GROUP BY relation
      ORDER BY sum(record_length) DESC
      LIMIT $2`,
    [since, limit],
  );
  return rows.map((row) => ({ relation: row.relation, count: Number(row.count), bytes: Number(row.bytes) }));
}

/** The statements that cost Postgres the most execution time since the last reset. */
export async function topStatements(
  server: BenchDatabaseServer,
  client: pg.ClientBase,
  limit = 8,
): Promise<StatementCost[]> {
  if (!server.statementsAvailable) return [];
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

/** The server's values of the named settings, to print what the cases really ran with. */
export async function readServerSettings(
  server: BenchDatabaseServer,
  names: string[],
): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: server.maintenanceUrl });
  await client.connect();
  try {
    // pg_settings lists only what this role may read (shared_preload_libraries needs
    // pg_read_all_settings); the rest is shown as hidden rather than failing the run.
    const { rows } = await client.query<{ name: string; value: string }>(
      'SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY ($1::text[])',
      [names],
    );
    const values = new Map(rows.map((row) => [row.name, row.value]));
    return Object.fromEntries(names.map((name) => [name, values.get(name) ?? '(not readable or not set)']));
  } finally {
    await client.end();
  }
}
