// Finds the database `npm start` runs on: DATABASE_URL when set, otherwise the embedded PostgreSQL in
// the data folder (initialised on first start, kept between runs). Either way the database is
// reachable and migrated when this returns, or start-up stops with a message naming the problem.
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../../lib/runtime/env';
import {
  ensureDatabase,
  startEmbeddedPostgres,
  type EmbeddedPostgresHandle,
} from '../../lib/database/embedded-postgres';
import { applyPayloadLimit } from '../../lib/database/apply-payload-limit';
import { migrate } from '../../lib/database/migrate';
import { assertSchemaCurrent, type SchemaStatus } from '../../lib/database/schema-version';
import { sealEndpointSecretsAt, type SealResult } from '../../lib/database/seal-endpoint-secrets';

export interface Database {
  url: string;
  /** Present when the database is the embedded one; stop it last. */
  embedded: EmbeddedPostgresHandle | null;
  appliedMigrations: string[];
  /** The last migration applied: the schema version this process checked it runs against. */
  schemaVersion: string;
  /** Signing secrets encrypted (or moved to the current key) at this start. */
  sealed: SealResult;
}

export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StartupError';
  }
}

export async function connectDatabase(config: Config, log: (line: string) => void): Promise<Database> {
  let embedded: EmbeddedPostgresHandle | null = null;
  let url: string;
  if (config.DATABASE_URL) {
    url = config.DATABASE_URL;
    await checkReachable(url);
  } else {
    const dataDir = join(config.HOOKLINE_DATA_DIR, 'postgres');
    log(`Starting the embedded PostgreSQL (data in ${dataDir}, port ${config.HOOKLINE_EMBEDDED_PG_PORT})…`);
    try {
      embedded = await startEmbeddedPostgres({ dataDir, port: config.HOOKLINE_EMBEDDED_PG_PORT });
      if (embedded.linkedFrom) {
        log(
          `The embedded PostgreSQL runs as the system user postgres, which cannot enter ${embedded.blockedBy ?? 'a folder above the data folder'}: ` +
            `its data lives in ${embedded.dataDir} (${embedded.linkedFrom} links there).`,
        );
      }
    } catch (error) {
      // Its messages name the problem and the setting that fixes it; a stack trace would bury that.
      throw new StartupError((error as Error).message, { cause: error });
    }
    url = await ensureDatabase(embedded.connectionString, 'hookline');
  }
  try {
    // HOOKLINE_MIGRATE_ON_START=false: deploys that run `npm run migrate` as a step of their own;
    // a start against an older schema is then refused below instead of migrating.
    const applied = config.HOOKLINE_MIGRATE_ON_START ? (await migrate(url)).applied : [];
    const schema = await checkSchemaAt(url);
    await applyPayloadLimit(url, config.HOOKLINE_MAX_PAYLOAD_BYTES);
    const sealed = await sealEndpointSecretsAt(url);
    return { url, embedded, appliedMigrations: applied, schemaVersion: schema.expected, sealed };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

/** Throws SchemaVersionError (naming both versions) unless the schema is exactly the one this code knows. */
async function checkSchemaAt(url: string): Promise<SchemaStatus> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await assertSchemaCurrent(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Connects once with a short timeout so a wrong DATABASE_URL fails in seconds with its reason. */
async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const reason = (error as Error).message || (error as { code?: string }).code || String(error);
    throw new StartupError(`Cannot connect to DATABASE_URL (${redactPassword(url)}): ${reason}`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
}

export function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
