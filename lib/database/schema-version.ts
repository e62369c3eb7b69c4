// Which schema the database is at, against the one this code was written for. The version is the name
// of the last migration (prisma/migrations/<timestamp>_<name>), applied in timestamp order by
// ./migrate.ts and recorded in hookline._prisma_migrations.
//
// A process must not run against a schema it does not know: older (a migration it relies on is not
// applied: `npm run migrate` first) or newer (a later release migrated the database: this process is
// the old one, and may write rows the new schema no longer means). Workers and web servers refuse to
// start then, naming both versions; /readyz reports the same (./health.ts).
import { readdirSync } from 'node:fs';
import { defaultMigrationsDir } from './migrate';

export interface SchemaStatus {
  /** The last migration this code knows. */
  expected: string;
  /** The last migration the database has applied; null for an empty database. */
  current: string | null;
  /** Known here, not applied there. */
  pending: string[];
  /** Applied there, unknown here: the database is newer than this code. */
  unknown: string[];
}

export class SchemaVersionError extends Error {
  constructor(readonly status: SchemaStatus) {
    super(describeMismatch(status) ?? 'the database schema is current');
    this.name = 'SchemaVersionError';
  }
}

interface Queryable {
  query<Row extends object>(text: string): Promise<{ rows: Row[] }>;
}

const known = new Map<string, string[]>();

/** The migrations of a folder, read once per process (they do not change under a running process). */
export function knownMigrations(dir = defaultMigrationsDir): string[] {
  let names = known.get(dir);
  if (!names) {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    known.set(dir, names);
  }
  return names;
}

export async function readSchemaStatus(db: Queryable, dir = defaultMigrationsDir): Promise<SchemaStatus> {
  const names = knownMigrations(dir);
  const { rows: exists } = await db.query<{ present: boolean }>(
    `SELECT to_regclass('hookline._prisma_migrations') IS NOT NULL AS present`,
  );
  const applied = exists[0]?.present
    ? (
        await db.query<{ migration_name: string }>(
          `SELECT migration_name FROM hookline._prisma_migrations
            WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
        )
      ).rows.map((row) => row.migration_name)
    : [];
  const appliedSet = new Set(applied);
  const knownSet = new Set(names);
  return {
    expected: names.at(-1) ?? '(none)',
    current: applied.at(-1) ?? null,
    pending: names.filter((name) => !appliedSet.has(name)),
    unknown: applied.filter((name) => !knownSet.has(name)),
  };
}

/** What is wrong, in a sentence that names both versions; null when the schema is the one expected. */
export function describeMismatch(status: SchemaStatus): string | null {
  const current = status.current ?? 'an empty database (no migration applied)';
  if (status.unknown.length > 0) {
    return (
      `The database schema is at ${current}, newer than this Hookline knows (${status.expected}): ` +
      `it has ${status.unknown.length} migration(s) this version does not (${status.unknown.slice(0, 3).join(', ')}). ` +
      'Run the Hookline release that applied them.'
    );
  }
  if (status.pending.length > 0) {
    return (
      `The database schema is at ${current}, older than this Hookline expects (${status.expected}): ` +
      `${status.pending.length} migration(s) to apply. Run \`npm run migrate\` first.`
    );
  }
  return null;
}

/** Throws SchemaVersionError unless the database has exactly the migrations this code knows. */
export async function assertSchemaCurrent(db: Queryable, dir = defaultMigrationsDir): Promise<SchemaStatus> {
  const status = await readSchemaStatus(db, dir);
  if (describeMismatch(status)) throw new SchemaVersionError(status);
  return status;
}
