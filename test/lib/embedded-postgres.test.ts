// The embedded PostgreSQL of `npm start`: a second start on the same data folder must leave a live
// Hookline's server alone, while a server left behind by a killed one is taken over.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../lib/embedded-postgres';

let folder: string;
let dataDir: string;
let server: EmbeddedPostgresHandle | null = null;
let otherProcess: ChildProcess | null = null;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hookline-embedded-'));
  dataDir = join(folder, 'postgres');
});

afterAll(async () => {
  otherProcess?.kill('SIGKILL');
  await server?.stop();
  await rm(folder, { recursive: true, force: true });
});

async function serverAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('the embedded PostgreSQL data folder', () => {
  it('refuses a second owner while the first is alive, and leaves its server running', async () => {
    server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    // Pretend another live process (a second `npm start`) owns the running server.
    otherProcess = spawn('sleep', ['60']);
    await writeFile(join(dataDir, 'hookline-owner.pid'), `${otherProcess.pid}\n`);

    await expect(startEmbeddedPostgres({ dataDir, port: await freePort() })).rejects.toThrow(
      new RegExp(`in use by another Hookline process \\(pid ${otherProcess.pid}\\).*HOOKLINE_DATA_DIR`),
    );
    expect(await serverAnswers(server.connectionString)).toBe(true);
  });

  it('takes over a server whose owner is gone', async () => {
    const gone = otherProcess!;
    const exited = new Promise((resolve) => gone.once('exit', resolve));
    gone.kill('SIGKILL');
    await exited;
    const previous = server!;
    server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    expect(await serverAnswers(previous.connectionString)).toBe(false);
    expect(await serverAnswers(server.connectionString)).toBe(true);
  });
});
