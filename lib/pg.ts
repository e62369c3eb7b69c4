// node-postgres pools for the hand-written SQL (queue hot path, LISTEN, migrations).
import pg from 'pg';
import { createLogger } from './log';

const log = createLogger({ component: 'pg' });

// bigint (int8) as JS number: our counts stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export function createPool(connectionString: string, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 10, ...options });
  // Without a listener, an idle client's error (Postgres restarted, connection killed) is thrown as an
  // uncaught 'error' event and ends the process. The pool drops the broken client; callers retry.
  pool.on('error', (error) => log.warn('idle postgres connection lost', { error }));
  return pool;
}

export function createClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString });
}

/** Replaces the database name of a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
