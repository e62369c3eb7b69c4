// A database of its own, migrated with every migration before `migration`: what a running installation
// looked like before that migration, for tests that carry one forward with migrate(). Its name goes in
// the returned drop(), which the test's afterAll calls.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { defaultMigrationsDir, migrate } from '../../lib/database/migrate';
import { withDatabase } from '../../lib/database/pg';

async function asMaintenance(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * Creates the database and applies the migrations before `migration` (a copy of them in a folder of
 * their own, with no prisma/functions beside it: each function as its last migration left it).
 * `icuLocale` makes the database's own collation that ICU locale (en-US: what most servers compare
 * text in) instead of the test server's C.
 * `releaseFunctions` applies, after them, the prisma/functions files the release before `migration`
 * shipped that the migrations alone leave as an older release wrote them (hookline.send inserting into
 * a table since dropped), kept in test/fixtures/functions-before-<migration name> (not read from git:
 * a checkout may have no history), as that release's `npm start` did.
 */
export async function databaseBefore(
  migration: string,
  options: { icuLocale?: string; releaseFunctions?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hookline_before_${randomBytes(5).toString('hex')}`;
  await asMaintenance(
    options.icuLocale === undefined
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}' LOCALE 'C'`,
  );
  const dir = await migrationsWhere((entry) => entry < migration);
  if (options.releaseFunctions)
    await cp(releaseFunctionsDir(migration), join(dirname(dir), 'functions'), { recursive: true });
  const url = withDatabase(inject('maintenanceUrl'), name);
  await migrate(url, dir);
  return { url, drop: () => asMaintenance(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A copy of the migrations `keep` selects, in a folder of their own (no prisma/functions beside it). */
async function migrationsWhere(keep: (entry: string) => boolean): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'hookline-before-')), 'migrations');
  for (const entry of await readdir(defaultMigrationsDir)) {
    if (keep(entry)) await cp(join(defaultMigrationsDir, entry), join(dir, entry), { recursive: true });
  }
  return dir;
}

/**
 * Applies the migrations up to and including `migration`, and no later one: for a test that looks at
 * what that migration did before a later one changes it again (20261208090000_ids_as_uuid rewrites
 * every period of messages and deliveries, for one).
 */
export async function migrateThrough(url: string, migration: string): ReturnType<typeof migrate> {
  return migrate(url, await migrationsWhere((entry) => entry <= migration));
}

/** The folder of prisma/functions files the release before `migration` shipped (those its tests need). */
function releaseFunctionsDir(migration: string): string {
  return join(
    import.meta.dirname,
    '..',
    'fixtures',
    `functions-before-${migration.replace(/^\d+_/, '').replaceAll('_', '-')}`,
  );
}

/** One prisma/functions file as the release before `migration` had it. */
export function functionFileBefore(migration: string, name: string): string {
  return readFileSync(join(releaseFunctionsDir(migration), name), 'utf8');
}
