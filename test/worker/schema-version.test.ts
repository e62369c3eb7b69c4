// Deploys (issue 24, item 6): a standalone worker refuses to start against a schema older or newer
// than it knows, naming both versions; its metrics port answers /livez and /readyz, and /readyz turns
// 503 when the schema moves under it; `npm run migrate` brings an empty database to the current schema
// and encrypts the plaintext signing secrets a database already held.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../lib/database/embedded-postgres';
import { knownMigrations, readSchemaStatus } from '../../lib/database/schema-version';
import { withDatabase } from '../../lib/database/pg';
import { decryptSecret } from '../../lib/runtime/secret-box';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createApp, createEndpoint } from '../support/fixtures';
import { waitUntil } from '../support/receiver';
import { killAll, spawnWorker, type WorkerProcess } from '../support/worker-process';

const ROOT = resolve(import.meta.dirname, '..', '..');
const KEY = randomBytes(32).toString('base64');
const latest = knownMigrations().at(-1)!;
const FUTURE = '29990101000000_from_a_later_release';

let db: TestDatabase;
const workers: WorkerProcess[] = [];
const createdDatabases: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.HOOKLINE_ENCRYPTION_KEY = KEY;
});

// A worker left running would encrypt the plaintext secrets the migrate test below writes (its
// maintenance does), before `npm run migrate` gets to them.
afterEach(async () => {
  await killAll(workers.splice(0));
});

afterAll(async () => {
  const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
  await admin.connect();
  for (const name of createdDatabases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  delete process.env.HOOKLINE_ENCRYPTION_KEY;
});

const recordFutureMigration = () =>
  db.pool.query(
    `INSERT INTO hookline._prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
     VALUES ($1, repeat('0', 64), $2, now(), 1)`,
    [randomUUID(), FUTURE],
  );
const forgetFutureMigration = () =>
  db.pool.query('DELETE FROM hookline._prisma_migrations WHERE migration_name = $1', [FUTURE]);

async function refusal(env: Record<string, string> = {}): Promise<string> {
  const worker = spawnWorker(db.url, { HOOKLINE_ENCRYPTION_KEY: KEY, ...env });
  workers.push(worker);
  const { code } = await worker.exited;
  expect(code).toBe(1);
  expect(worker.started()).toBe(false);
  return worker.output();
}

describe('a standalone worker and the schema version', () => {
  it('knows the database it was tested against as current', async () => {
    expect(await readSchemaStatus(db.pool)).toEqual({ expected: latest, current: latest, pending: [], unknown: [] });
  });

  it('refuses a schema newer than it knows, naming both versions', async () => {
    await recordFutureMigration();
    try {
      const output = await refusal();
      expect(output).toContain(`The database schema is at ${FUTURE}, newer than this Hookline knows (${latest})`);
    } finally {
      await forgetFutureMigration();
    }
  });

  it('refuses a schema older than it knows, naming both versions', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      'SELECT id FROM hookline._prisma_migrations WHERE migration_name = $1',
      [latest],
    );
    await db.pool.query('UPDATE hookline._prisma_migrations SET rolled_back_at = now() WHERE id = $1', [rows[0]!.id]);
    try {
      const previous = knownMigrations().at(-2)!;
      const output = await refusal();
      expect(output).toContain(`The database schema is at ${previous}, older than this Hookline expects (${latest})`);
      expect(output).toContain('npm run migrate');
    } finally {
      await db.pool.query('UPDATE hookline._prisma_migrations SET rolled_back_at = NULL WHERE id = $1', [rows[0]!.id]);
    }
  });

  it('answers /livez and /readyz on its metrics port; /readyz is 503 once the schema moves under it', async () => {
    const port = await freePort();
    const worker = spawnWorker(db.url, { HOOKLINE_ENCRYPTION_KEY: KEY, HOOKLINE_METRICS_PORT: String(port) });
    workers.push(worker);
    await waitUntil(() => worker.started(), { timeoutMs: 30_000, what: `worker started:\n${worker.output()}` });
    const ask = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await ask('/livez')).toEqual({ status: 200, body: { status: 'live' } });
    const ready = await ask('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      database: { ok: true },
      schema: { current: latest, expected: latest },
    });
    await recordFutureMigration();
    try {
      const notReady = await ask('/readyz');
      expect(notReady.status).toBe(503);
      expect((notReady.body.schema as { problem: string }).problem).toContain(
        `${FUTURE}, newer than this Hookline knows (${latest})`,
      );
      expect((await ask('/livez')).status).toBe(200);
    } finally {
      await forgetFutureMigration();
    }
  });
});

describe('npm run migrate', () => {
  function runMigrate(url: string): Promise<{ code: number | null; output: string }> {
    return new Promise((done) => {
      const child = spawn(process.execPath, ['scripts/run.mjs', 'migrate'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url, HOOKLINE_ENCRYPTION_KEY: KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => done({ code, output }));
    });
  }

  it('migrates an empty database to the current schema, then has nothing to do', async () => {
    const name = `hookline_npm_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('maintenanceUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    createdDatabases.push(name);
    const url = withDatabase(inject('maintenanceUrl'), name);
    const first = await runMigrate(url);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/Applied \d+ migration\(s\)/);
    expect(first.output).toContain(`The database schema is at ${latest}.`);
    const second = await runMigrate(url);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('No migration to apply.');
  }, 60_000);

  it('encrypts the plaintext secrets of a database that held them', async () => {
    const appId = await createApp(db.pool);
    const endpoint = await createEndpoint(db.pool, appId, 'https://example.com/plain');
    const result = await runMigrate(db.url);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Signing secrets: [1-9]\d* encrypted/);
    const { rows } = await db.pool.query<{ secret: string }>(
      'SELECT secret FROM hookline.endpoint_secrets WHERE endpoint_id = $1',
      [endpoint.id],
    );
    expect(rows[0]!.secret).toMatch(/^hlenc:v1:/);
    expect(decryptSecret(rows[0]!.secret)).toBe(endpoint.secret);
  }, 60_000);

  it('refuses a database migrated by a newer release, naming both versions', async () => {
    await recordFutureMigration();
    try {
      const result = await runMigrate(db.url);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`${FUTURE}, newer than this Hookline knows (${latest})`);
    } finally {
      await forgetFutureMigration();
    }
  }, 60_000);
});
