// The embedded PostgreSQL of `npm start`: a second start on the same data folder must leave a live
// Hookline's server alone, while a server left behind by a killed one is taken over; and the
// throwaway servers of killed test runs and benchmarks are cleaned up by the next run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  removeOrphanedTempServers,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../lib/embedded-postgres';

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

describe('throwaway servers left by killed runs', () => {
  it('are stopped and removed when their owner is gone, and left alone while it lives', async () => {
    const prefix = `hookline-orphan-test-${process.pid}-`;
    const start = async (owner: number) => {
      const folder = await mkdtemp(join(tmpdir(), prefix));
      const handle = await startEmbeddedPostgres({ dataDir: join(folder, 'pg'), port: await freePort() });
      await writeFile(join(folder, 'pg', 'hookline-owner.pid'), `${owner}\n`);
      return { folder, handle };
    };
    // A run killed outright: its owner pid no longer exists.
    const killedRun = spawn('sleep', ['60']);
    const killed = new Promise((resolve) => killedRun.once('exit', resolve));
    killedRun.kill('SIGKILL');
    await killed;
    const orphan = await start(killedRun.pid!);
    const live = await start(process.pid);
    try {
      expect(await removeOrphanedTempServers(prefix)).toEqual([orphan.folder]);
      expect(await serverAnswers(orphan.handle.connectionString)).toBe(false);
      expect(existsSync(orphan.folder)).toBe(false);
      expect(await serverAnswers(live.handle.connectionString)).toBe(true);
    } finally {
      await live.handle.stop();
      await rm(live.folder, { recursive: true, force: true });
      await orphan.handle.stop().catch(() => {});
      await rm(orphan.folder, { recursive: true, force: true });
    }
  });
});
