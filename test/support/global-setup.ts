// One PostgreSQL for the whole test run: the embedded one when DATABASE_URL is unset (a fresh data
// folder per run), otherwise the server of DATABASE_URL (its role needs CREATEDB). A template
// database is migrated once; every test file clones it (test/support/database.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  freePort,
  removeOrphanedTempServers,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../lib/database/embedded-postgres';
import { migrate } from '../../lib/database/migrate';
import { withDatabase } from '../../lib/database/pg';

export const TEMPLATE_DATABASE = 'hookline_test_template';
const TEST_SERVER_PREFIX = 'hookline-test-pg-';

declare module 'vitest' {
  export interface ProvidedContext {
    maintenanceUrl: string;
    templateDatabase: string;
  }
}

export default function setup(project: TestProject) {
  return setUpServer(project, { prefix: TEST_SERVER_PREFIX, useDatabaseUrl: true });
}

/**
 * One server for a test project: DATABASE_URL's when asked and set, otherwise a new one of the embedded
 * PostgreSQL, or of the installation in `binDir` (test/support/global-setup-pg15.ts).
 */
export async function setUpServer(
  project: TestProject,
  options: { prefix: string; useDatabaseUrl: boolean; binDir?: string },
) {
  let embedded: EmbeddedPostgresHandle | undefined;
  let dataDir: string | undefined;
  let maintenanceUrl: string;
  if (options.useDatabaseUrl && process.env.DATABASE_URL) {
    maintenanceUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    for (const folder of await removeOrphanedTempServers(options.prefix)) {
      console.warn(`Stopped and removed ${folder}: the embedded PostgreSQL of a test run that was killed.`);
    }
    dataDir = await mkdtemp(join(tmpdir(), options.prefix));
    embedded = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'pg'),
      port: await freePort(),
      // Durability is irrelevant for throwaway test data; this makes CREATE DATABASE and commits fast.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
      binDir: options.binDir,
    });
    maintenanceUrl = embedded.connectionString;
  }

  const admin = new pg.Client({ connectionString: maintenanceUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await migrate(withDatabase(maintenanceUrl, TEMPLATE_DATABASE));

  project.provide('maintenanceUrl', maintenanceUrl);
  project.provide('templateDatabase', TEMPLATE_DATABASE);

  return async () => {
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
