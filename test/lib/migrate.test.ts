// The migration runner against real, empty databases: concurrent starts, atomic failure, Prisma
// compatibility and refusing an edited migration.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { defaultMigrationsDir, migrate, MigrationError } from '../../lib/database/migrate';
import { withDatabase } from '../../lib/database/pg';

const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `hookline_migrate_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  return withDatabase(inject('maintenanceUrl'), name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('migrate', () => {
  it('applies each migration exactly once when two processes start at the same moment', async () => {
    const url = await emptyDatabase();
    const [first, second] = await Promise.all([migrate(url), migrate(url)]);
    // One runner applied everything; the other waited on the advisory lock and found it done.
    expect([first.applied.length, second.applied.length].sort()).toEqual([
      0,
      first.applied.length + second.applied.length,
    ]);
    const rows = await query<{ migration_name: string; count: number }>(
      url,
      'SELECT migration_name, count(*)::int AS count FROM hookline._prisma_migrations GROUP BY 1',
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.count === 1)).toBe(true);
    expect((await migrate(url)).applied).toEqual([]);
  });

  it("records migrations in Prisma's _prisma_migrations layout", async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const columns = await query<{ column_name: string; data_type: string }>(
      url,
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'hookline' AND table_name = '_prisma_migrations' ORDER BY column_name`,
    );
    expect(columns.map((column) => column.column_name)).toEqual([
      'applied_steps_count',
      'checksum',
      'finished_at',
      'id',
      'logs',
      'migration_name',
      'rolled_back_at',
      'started_at',
    ]);
    const [row] = await query<{ checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      `SELECT checksum, finished_at, applied_steps_count FROM hookline._prisma_migrations ORDER BY migration_name LIMIT 1`,
    );
    expect(row!.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.finished_at).toBeInstanceOf(Date);
    expect(row!.applied_steps_count).toBe(1);
  });

  it('reports a failing migration with its file and the database error, and records nothing of it', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'hookline-migrations-'));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    const broken = join(dir, '29991231000000_broken');
    await mkdir(broken);
    // The first statement succeeds, the second fails: atomicity means the first is rolled back too.
    await writeFile(
      join(broken, 'migration.sql'),
      'CREATE TABLE hookline.half_done (id int);\nSELECT * FROM hookline.no_such_table;\n',
    );

    const error = await migrate(url, dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toContain('29991231000000_broken');
    expect((error as Error).message).toContain(join(broken, 'migration.sql'));
    expect((error as Error).message).toMatch(/relation "hookline.no_such_table" does not exist/);

    const recorded = await query<{ migration_name: string }>(
      url,
      'SELECT migration_name FROM hookline._prisma_migrations',
    );
    expect(recorded.map((row) => row.migration_name)).not.toContain('29991231000000_broken');
    expect(recorded.length).toBeGreaterThan(0); // the good ones before it are applied and kept
    const halfDone = await query(
      url,
      `SELECT 1 FROM pg_tables WHERE schemaname = 'hookline' AND tablename = 'half_done'`,
    );
    expect(halfDone).toEqual([]);
  });

  it('refuses to run when an applied migration file was edited afterwards', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'hookline-migrations-'));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await migrate(url, dir);
    const first = (
      await query<{ migration_name: string }>(
        url,
        'SELECT migration_name FROM hookline._prisma_migrations ORDER BY 1 LIMIT 1',
      )
    )[0]!.migration_name;
    await writeFile(join(dir, first, 'migration.sql'), '-- edited\n', { flag: 'a' });
    await expect(migrate(url, dir)).rejects.toThrow(/changed after it was applied/);
  });

  it('refuses a database a later release migrated before it writes anything, its functions included', async () => {
    // An older release starting against a newer database (a rolling deploy, a pod crash-looping on the
    // old image) must not put its own function bodies back over the newer ones.
    const url = await emptyDatabase();
    const root = await mkdtemp(join(tmpdir(), 'hookline-older-release-'));
    const dir = join(root, 'migrations');
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await cp(join(dirname(defaultMigrationsDir), 'functions'), join(root, 'functions'), { recursive: true });
    await migrate(url, dir);
    await query(
      url,
      `INSERT INTO hookline._prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, repeat('0', 64), '29990101000000_from_a_later_release', now(), 1)`,
    );
    const edited = join(root, 'functions', 'new-id.sql');
    await writeFile(
      edited,
      (await readFile(edited, 'utf8')).replace(
        "SELECT prefix OPERATOR(pg_catalog.||) '_'",
        "SELECT /* the older release's body */ prefix OPERATOR(pg_catalog.||) '_'",
      ),
    );
    const latest = (await readdir(dir)).sort().at(-1)!;

    await expect(migrate(url, dir)).rejects.toThrow(
      `The database schema is at 29990101000000_from_a_later_release, newer than this Hookline knows (${latest})`,
    );
    const [live] = await query<{ prosrc: string }>(
      url,
      `SELECT prosrc FROM pg_proc WHERE oid = 'hookline.new_id(text)'::regprocedure`,
    );
    expect(live!.prosrc).not.toContain("older release's body");
  });

  it('runs the body of each prisma/functions file, and applies a file again when it changes', async () => {
    const url = await emptyDatabase();
    const root = await mkdtemp(join(tmpdir(), 'hookline-functions-'));
    const dir = join(root, 'migrations');
    await cp(defaultMigrationsDir, dir, { recursive: true });
    await cp(join(dirname(defaultMigrationsDir), 'functions'), join(root, 'functions'), { recursive: true });
    const files = (await readdir(join(root, 'functions'))).filter((name) => name.endsWith('.sql'));
    expect(files.length).toBeGreaterThan(0);
    expect((await migrate(url, dir)).functions.sort()).toEqual(files.sort());

    // The function the database runs is the file's, body for body: the file is where it lives.
    const bodyOf = async (file: string) => {
      const text = await readFile(join(root, 'functions', file), 'utf8');
      const name = /CREATE OR REPLACE FUNCTION (hookline\.\w+)\(/.exec(text)![1]!;
      const quote = /AS\s+(\$\w*\$)/.exec(text)!;
      const start = quote.index + quote[0].length;
      return { name, file: text.slice(start, text.indexOf(quote[1]!, start)) };
    };
    for (const file of files) {
      const { name, file: body } = await bodyOf(file);
      // By name: a file may define overloads (hookline.new_id(prefix) and new_id(prefix, sibling)).
      const live = await query<{ prosrc: string }>(
        url,
        `SELECT prosrc FROM pg_proc WHERE proname = '${name.split('.')[1]}' AND pronamespace = 'hookline'::regnamespace`,
      );
      expect(
        live.map((row) => row.prosrc),
        file,
      ).toContain(body);
    }

    // Unchanged: nothing applied again. Changed: that file, and its new body is the one that runs.
    expect((await migrate(url, dir)).functions).toEqual([]);
    const edited = join(root, 'functions', 'new-id.sql');
    const text = await readFile(edited, 'utf8');
    await writeFile(
      edited,
      text.replace(
        "SELECT prefix OPERATOR(pg_catalog.||) '_'",
        "SELECT /* edited */ prefix OPERATOR(pg_catalog.||) '_'",
      ),
    );
    expect((await migrate(url, dir)).functions).toEqual(['new-id.sql']);
    const [live] = await query<{ prosrc: string }>(
      url,
      `SELECT prosrc FROM pg_proc WHERE oid = 'hookline.new_id(text)'::regprocedure`,
    );
    expect(live!.prosrc).toContain('/* edited */');
    const [id] = await query<{ id: string }>(url, `SELECT hookline.new_id('msg') AS id`);
    expect(id!.id).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
