// A database of its own, migrated with every migration before `migration`: what a running installation
// looked like before that migration, for tests that carry one forward with migrate(). Its name goes in
// the returned drop(), which the test's afterAll calls.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 */
export async function databaseBefore(
  migration: string,
  options: { icuLocale?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hookline_before_${randomBytes(5).toString('hex')}`;
  await asMaintenance(
    options.icuLocale === undefined
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale}' LOCALE 'C'`,
  );
  const dir = join(await mkdtemp(join(tmpdir(), 'hookline-before-')), 'migrations');
  for (const entry of await readdir(defaultMigrationsDir)) {
    if (entry < migration) await cp(join(defaultMigrationsDir, entry), join(dir, entry), { recursive: true });
  }
  const url = withDatabase(inject('maintenanceUrl'), name);
  await migrate(url, dir);
  return { url, drop: () => asMaintenance(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
