// --database-url: the benchmark on a PostgreSQL the user runs (14 or newer), e.g. the Debian
// PostgreSQL 15 that bench/start-debian-postgres.ts starts. Each case still gets its own database,
// created there from a migrated template, so the role must be allowed to create databases. Nothing
// outside databases named hookline_bench_* is touched.
import pg from 'pg';
import { serveCaseDatabases, type BenchDatabaseServer, type TemplateOptions } from './bench-database';
import { findLocalPostmaster } from './local-postmaster';

// DROP DATABASE ... WITH (FORCE) (13) and the README's promise (14+).
const MINIMUM_VERSION_NUM = 140000;

export async function connectGivenDatabase(
  databaseUrl: string,
  options: TemplateOptions = {},
): Promise<BenchDatabaseServer> {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new Error(
      `--database-url must be a URL like postgresql://user:password@host:5432/postgres, got "${databaseUrl}"`,
    );
  }
  if (!['postgres:', 'postgresql:'].includes(parsed.protocol)) {
    throw new Error(`--database-url must start with postgresql://, got "${parsed.protocol}//..."`);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`--database-url: cannot connect to ${parsed.host}: ${(error as Error).message}`, { cause: error });
  }
  let postmasterPid: number | null;
  try {
    const { rows } = await client.query<{ version_num: string; may_create: boolean; role: string }>(
      `SELECT current_setting('server_version_num') AS version_num, current_user AS role,
              (SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user) AS may_create`,
    );
    const { version_num: versionNum, may_create: mayCreate, role } = rows[0]!;
    if (Number(versionNum) < MINIMUM_VERSION_NUM) {
      throw new Error(`--database-url: PostgreSQL ${versionNum} is older than 14, which Hookline supports`);
    }
    if (!mayCreate) {
      throw new Error(
        `--database-url: role "${role}" may not create databases, and every case runs in a database of its own. ` +
          `Grant it with ALTER ROLE "${role}" CREATEDB, or use bench/start-debian-postgres.ts.`,
      );
    }
    postmasterPid = await findLocalPostmaster(client);
  } finally {
    await client.end();
  }
  return serveCaseDatabases({
    ...options,
    maintenanceUrl: databaseUrl,
    postmasterPid,
    origin: `given by --database-url (${parsed.host})`,
    // The server is the user's: leave it running.
    async stopServer() {},
  });
}
