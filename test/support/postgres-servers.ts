// PostgreSQL servers of their own, for tests that stop or restart the server under running workers
// (the shared one of test/support/global-setup.ts serves the other files and must stay up), or a
// primary with a streaming standby (startPrimaryAndStandby): the
// embedded PostgreSQL 18, and the machine's Debian PostgreSQL 15 where it is installed (users bring
// 14+, and the planner and timing there are not 18's). Each lives in a temporary folder on a free port.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../lib/database/embedded-postgres';
import { migrate } from '../../lib/database/migrate';
import { withDatabase } from '../../lib/database/pg';

export const DEBIAN_15_BIN = '/usr/lib/postgresql/15/bin';

export interface ServerKind {
  name: string;
  /** Why this kind cannot run here, or null when it can. */
  unavailable: string | null;
  binDir?: string;
}

export const SERVER_KINDS: ServerKind[] = [
  { name: 'PostgreSQL 18 (embedded)', unavailable: null },
  {
    name: 'PostgreSQL 15 (Debian)',
    unavailable: existsSync(join(DEBIAN_15_BIN, 'pg_ctl'))
      ? null
      : `${DEBIAN_15_BIN}/pg_ctl not found (apt-get install postgresql-15)`,
    binDir: DEBIAN_15_BIN,
  },
];

export interface TestServer {
  /** A migrated database of its own on this server. */
  databaseUrl: string;
  handle: EmbeddedPostgresHandle;
  /** Stops the server (fast) and starts it again after `downMs`, on the same port and data. */
  stopAndStart(downMs: number): Promise<void>;
  close(): Promise<void>;
}

// Durability does not matter for throwaway data; a fast stop checkpoints anyway, so a restart loses
// no commit.
const SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

export async function startTestServer(kind: ServerKind, database: string): Promise<TestServer> {
  const folder = await mkdtemp(join(tmpdir(), 'hookline-restart-pg-'));
  const port = await freePort();
  const options = { dataDir: join(folder, 'pg'), port, settings: SETTINGS, binDir: kind.binDir };
  let handle = await startEmbeddedPostgres(options);
  const admin = new pg.Client({ connectionString: handle.connectionString });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = withDatabase(handle.connectionString, database);
  await migrate(databaseUrl);
  return {
    databaseUrl,
    get handle() {
      return handle;
    },
    async stopAndStart(downMs) {
      await handle.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      handle = await startEmbeddedPostgres(options);
    },
    async close() {
      await handle.stop().catch(() => {});
      await rm(folder, { recursive: true, force: true });
    },
  };
}

export interface PrimaryAndStandby {
  primary: TestServer;
  /** The standby's connection string, to the same database. */
  standbyUrl: string;
  standby: EmbeddedPostgresHandle;
  close(): Promise<void>;
}

/**
 * A primary and a streaming standby of it, both local. The standby starts from a copy of the primary's
 * data taken while it was stopped cleanly (a valid base backup without pg_basebackup, which the
 * embedded PostgreSQL does not ship), with standby.signal and primary_conninfo: PostgreSQL's own
 * streaming replication from there on.
 */
export async function startPrimaryAndStandby(kind: ServerKind, database: string): Promise<PrimaryAndStandby> {
  const primary = await startTestServer(kind, database);
  const source = primary.handle.dataDir;
  const password = new URL(primary.handle.connectionString).password;
  await primary.handle.stop();
  const folder = await mkdtemp(join(tmpdir(), 'hookline-standby-pg-'));
  const dataDir = join(folder, 'pg');
  // cp -a keeps the owner (the postgres user, when the tests run as root) and the 0700 modes.
  execFileSync('cp', ['-a', source, dataDir]);
  await rm(join(dataDir, 'postmaster.pid'), { force: true });
  await writeFile(join(dataDir, 'standby.signal'), '');
  await appendFile(
    join(dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.handle.port} user=postgres password=${decodeURIComponent(password)}'\n`,
  );
  const owner = statSync(source);
  for (const file of ['standby.signal', 'postgresql.auto.conf']) await chown(join(dataDir, file), owner.uid, owner.gid);
  await primary.stopAndStart(0);
  const standby = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    settings: SETTINGS,
    binDir: kind.binDir,
  });
  return {
    primary,
    standby,
    standbyUrl: withDatabase(standby.connectionString, database),
    async close() {
      await standby.stop().catch(() => {});
      await rm(folder, { recursive: true, force: true });
      await primary.close();
    },
  };
}
