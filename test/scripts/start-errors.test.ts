// `npm start` with bad configuration stops before doing anything, with a message that names the
// problem. Each case runs the real start script in a child process.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../lib/database/embedded-postgres';
import { knownMigrations } from '../../lib/database/schema-version';
import { createTestDatabase } from '../support/database';

const root = resolve(import.meta.dirname, '../..');

function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

const blockers: Server[] = [];
afterAll(() => blockers.forEach((server) => server.close()));

describe('npm start refuses bad configuration', () => {
  it('names a malformed variable, what was given and what is expected', async () => {
    const { code, output } = await runStart({ PORT: 'eighty', HOOKLINE_RETRY_SCHEDULE: '5s,soon' });
    expect(code).toBe(1);
    expect(output).toContain('PORT must be an integer from 1 to 65535, got "eighty"');
    expect(output).toMatch(/HOOKLINE_RETRY_SCHEDULE must be a comma-separated list .*"soon"/);
  });

  it('names the port that is already in use', async () => {
    const port = await freePort();
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', done));
    const { code, output } = await runStart({
      PORT: String(port),
      HOOKLINE_DATA_DIR: await mkdtemp(join(tmpdir(), 'hookline-start-')),
    });
    expect(code).toBe(1);
    expect(output).toContain(`PORT ${port} on 127.0.0.1 is already in use`);
  });

  it('names an unreachable DATABASE_URL without showing its password', async () => {
    const closedPort = await freePort();
    const { code, output } = await runStart({
      PORT: String(await freePort()),
      DATABASE_URL: `postgresql://hookline:s3cret@127.0.0.1:${closedPort}/hookline`,
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `Cannot connect to DATABASE_URL (postgresql://hookline:***@127.0.0.1:${closedPort}/hookline)`,
    );
    expect(output).toMatch(/ECONNREFUSED/);
    expect(output).not.toContain('s3cret');
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL', async () => {
    const { code, output } = await runStart({ DATABASE_URL: 'mysql://root@localhost/db' });
    expect(code).toBe(1);
    expect(output).toContain('DATABASE_URL must start with postgresql://, got "mysql://"');
  });
});

describe('npm start refuses a database schema it does not know, naming both versions', () => {
  const latest = knownMigrations().at(-1)!;

  it('newer: a later release migrated it', async () => {
    const db = await createTestDatabase();
    await db.pool.query(
      `INSERT INTO hookline._prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, repeat('0', 64), '29990101000000_later', now(), 1)`,
      [randomUUID()],
    );
    const { code, output } = await runStart({
      PORT: String(await freePort()),
      DATABASE_URL: db.url,
      HOOKLINE_DATA_DIR: await mkdtemp(join(tmpdir(), 'hookline-start-')),
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `The database schema is at 29990101000000_later, newer than this Hookline knows (${latest})`,
    );
  });

  it('older, with HOOKLINE_MIGRATE_ON_START=false: `npm run migrate` first', async () => {
    const db = await createTestDatabase();
    await db.pool.query('DELETE FROM hookline._prisma_migrations WHERE migration_name = $1', [latest]);
    const { code, output } = await runStart({
      PORT: String(await freePort()),
      DATABASE_URL: db.url,
      HOOKLINE_MIGRATE_ON_START: 'false',
      HOOKLINE_DATA_DIR: await mkdtemp(join(tmpdir(), 'hookline-start-')),
    });
    expect(code).toBe(1);
    expect(output).toContain(`older than this Hookline expects (${latest})`);
    expect(output).toContain('npm run migrate');
  });
});
