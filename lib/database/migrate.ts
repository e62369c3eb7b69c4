// Applies prisma/migrations/<timestamp>_<name>/migration.sql in order, recording each in
// hookline._prisma_migrations with the same columns and checksum (sha256 of the file) as Prisma
// Migrate, so `prisma migrate deploy` (with ?schema=hookline) sees them as applied where its native
// engine can be installed. Hookline applies them itself because that engine is a separate download
// that offline and locked-down machines cannot fetch.
//
// Then prisma/functions/<name>.sql: the current definition of each SQL function that changes often
// (hookline.send was restated whole in four migrations, http_post in four), one file each, so a reader
// finds the body in one place and a change is an edit of that file. A file is applied again whenever
// its checksum differs from the one recorded in hookline._function_files, after every migration (a
// migration that changes a table such a function reads must keep the function working until then).
// `prisma migrate deploy` alone leaves them as the last migration that defined them.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { SchemaVersionError } from './schema-version';
import { createClient } from './pg';

/**
 * prisma/migrations of the project this file belongs to: the nearest folder above it that has one.
 * Searched for, not counted: this file runs from lib/database/ under tsx and from dist/ compiled.
 */
function findMigrationsDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no prisma/migrations folder above ${from}`);
  }
}

export const defaultMigrationsDir = findMigrationsDir(import.meta.dirname);

// Any constant works; it only has to be the same in every Hookline process so that two processes
// starting at once apply migrations one after the other instead of racing.
const MIGRATION_LOCK_KEY = 72_616_917_340;

export class MigrationError extends Error {
  constructor(
    readonly migrationName: string,
    readonly file: string,
    override readonly cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const position = (cause as { position?: string }).position;
    super(`Migration ${migrationName} failed (${file}${position ? `, character ${position}` : ''}): ${detail}`);
    this.name = 'MigrationError';
  }
}

interface MigrationFile {
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name, 'migration.sql');
      const sql = await readFile(file, 'utf8');
      return { name, file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Function files applied because they were new or changed. */
  functions: string[];
}

/** prisma/functions beside a migrations folder; none for a folder without one (tests' partial copies). */
async function readFunctions(migrationsDir: string): Promise<MigrationFile[]> {
  const dir = join(dirname(migrationsDir), 'functions');
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const sql = await readFile(file, 'utf8');
      return { name, file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** Applies the function files whose checksum changed, each in its own transaction with its record. */
async function applyFunctions(client: pg.Client, functions: MigrationFile[]): Promise<string[]> {
  if (functions.length === 0) return [];
  await client.query(`
    CREATE TABLE IF NOT EXISTS hookline._function_files (
      file       text PRIMARY KEY,
      checksum   varchar(64) NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    );`);
  const { rows } = await client.query<{ file: string; checksum: string }>(
    'SELECT file, checksum FROM hookline._function_files',
  );
  const recorded = new Map(rows.map((row) => [row.file, row.checksum]));
  const applied: string[] = [];
  for (const fn of functions) {
    if (recorded.get(fn.name) === fn.checksum) continue;
    try {
      await client.query('BEGIN');
      // As pg_dump does: a body that names a function of a later file is checked when it runs.
      await client.query('SET LOCAL check_function_bodies = off');
      await client.query(fn.sql);
      await client.query(
        `INSERT INTO hookline._function_files (file, checksum) VALUES ($1, $2)
         ON CONFLICT (file) DO UPDATE SET checksum = excluded.checksum, applied_at = now()`,
        [fn.name, fn.checksum],
      );
      await client.query('COMMIT');
      applied.push(fn.name);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw new MigrationError(fn.name, fn.file, error);
    }
  }
  return applied;
}

/**
 * A DETACH ... CONCURRENTLY cut short (a worker killed in its maintenance) leaves its time partition
 * pending detach. Finished here, before any migration, each in a statement of its own with no lock
 * held: a migration that moves partitions (20261203090000_ids_in_c_collation) would otherwise have to
 * finish it inside its transaction, where FINALIZE waits for every older snapshot while holding the
 * locks the sessions owning them queue for, a deadlock under any traffic. The period is left detached
 * for the worker's maintenance to drop or attach back (worker/time-partitions.ts). An overflow being
 * detached is empty (no row is routed to a partition being detached) and is dropped, as the maintenance
 * would: ensure_overflow_partitions() makes a new one once the migrations are applied.
 */
async function finishPendingDetaches(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ parent: string; partition: string }>(
    `SELECT quote_ident(p.relname) AS parent, quote_ident(c.relname) AS partition
       FROM pg_inherits AS i
       JOIN pg_class AS c ON c.oid = i.inhrelid
       JOIN pg_class AS p ON p.oid = i.inhparent
      WHERE i.inhdetachpending AND p.relnamespace = 'hookline'::regnamespace`,
  );
  for (const { parent, partition } of rows) {
    await client.query(`ALTER TABLE hookline.${parent} DETACH PARTITION hookline.${partition} FINALIZE`);
    if (partition !== `${parent}_overflow`) continue;
    const { rows: left } = await client.query(`SELECT 1 FROM hookline.${partition} LIMIT 1`);
    if (left.length > 0) {
      throw new Error(
        `hookline.${partition} was being detached but holds rows; attach it back by hand before migrating`,
      );
    }
    await client.query(`DROP TABLE hookline.${partition}`);
  }
}

export async function migrate(connectionString: string, dir = defaultMigrationsDir): Promise<MigrateResult> {
  const migrations = await readMigrations(dir);
  const functions = await readFunctions(dir);
  const client = createClient(connectionString);
  client.on('error', () => {}); // a lost connection surfaces as a failed query below
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`
      CREATE SCHEMA IF NOT EXISTS hookline;
      CREATE TABLE IF NOT EXISTS hookline._prisma_migrations (
        id                  varchar(36) PRIMARY KEY NOT NULL,
        checksum            varchar(64) NOT NULL,
        finished_at         timestamptz,
        migration_name      varchar(255) NOT NULL,
        logs                text,
        rolled_back_at      timestamptz,
        started_at          timestamptz NOT NULL DEFAULT now(),
        applied_steps_count integer NOT NULL DEFAULT 0
      );`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM hookline._prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    // A database a later release migrated is refused before anything is written: an older release
    // starting against it (a rolling deploy, a pod crash-looping on the old image) would otherwise
    // apply its own prisma/functions files over the newer bodies (hookline.send, the partition
    // maintenance), and only then refuse to start, leaving the new release running old SQL.
    const knownNames = new Set(migrations.map((migration) => migration.name));
    const unknown = [...done.keys()].filter((name) => !knownNames.has(name)).sort();
    if (unknown.length > 0) {
      const applied = [...done.keys()].sort();
      throw new SchemaVersionError({
        expected: migrations.at(-1)?.name ?? '(none)',
        current: applied.at(-1) ?? null,
        pending: migrations.map((migration) => migration.name).filter((name) => !done.has(name)),
        unknown,
      });
    }
    const result: MigrateResult = { applied: [], alreadyApplied: [], functions: [] };
    if (migrations.some((migration) => !done.has(migration.name))) await finishPendingDetaches(client);
    for (const migration of migrations) {
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new MigrationError(
            migration.name,
            migration.file,
            new Error('the file changed after it was applied; add a new migration instead of editing an applied one'),
          );
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      // Each migration and its record commit together or not at all: a failed migration leaves no
      // trace and is not recorded as applied.
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO hookline._prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query('COMMIT');
        result.applied.push(migration.name);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw new MigrationError(migration.name, migration.file, error);
      }
    }
    result.functions = await applyFunctions(client, functions);
    // Ids after the newest time partition need somewhere to go before a worker's maintenance adds
    // periods (prisma/functions/time-partitions.sql). Partial copies of the migrations (tests) may stop
    // before the partitioned tables exist.
    const { rows: partitioned } = await client.query<{ ready: boolean }>(
      `SELECT to_regprocedure('hookline.ensure_overflow_partitions()') IS NOT NULL AS ready`,
    );
    if (partitioned[0]?.ready) await client.query('SELECT hookline.ensure_overflow_partitions()');
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}
