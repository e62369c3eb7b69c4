// A database of its own, migrated with every migration before `migration`: what a running installation
// looked like before that migration, for tests that carry one forward with migrate(). Its name goes in
// the returned drop(), which the test's afterAll calls.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
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
 * `releaseFunctions` applies, after them, the prisma/functions files of the release before `migration`
 * (git: the parent of the commit that added it, or HEAD while it is not committed), as that release's
 * `npm start` did: hookline.send and the other functions as an installation ran them, where the
 * migrations alone leave some as an older release wrote them (hookline.send inserting into a table
 * since dropped) and some not there at all.
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
  if (options.releaseFunctions) await copyReleaseFunctions(migration, join(dirname(dir), 'functions'));
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

/** The git revision of the release before `migration`: the parent of the commit that added it, or HEAD. */
function releaseBefore(migration: string): string {
  const added = git('log', '--diff-filter=A', '--format=%H', '--', `prisma/migrations/${migration}`)
    .trim()
    .split('\n')
    .at(-1);
  return added ? `${added}^` : 'HEAD';
}

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dirname(dirname(defaultMigrationsDir)),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
}

/** One prisma/functions file as the release before `migration` had it. */
export function functionFileBefore(migration: string, name: string): string {
  return git('show', `${releaseBefore(migration)}:prisma/functions/${name}`);
}

async function copyReleaseFunctions(migration: string, into: string): Promise<void> {
  const release = releaseBefore(migration);
  await mkdir(into);
  for (const name of git('ls-tree', '--name-only', `${release}:prisma/functions`).trim().split('\n')) {
    if (name.endsWith('.sql')) await writeFile(join(into, name), git('show', `${release}:prisma/functions/${name}`));
  }
}
