// node-postgres pools for the hand-written SQL (queue hot path, LISTEN, migrations).
import pg from 'pg';
import { createLogger } from '../runtime/log';

const log = createLogger({ component: 'pg' });

// bigint (int8) as JS number: our counts stay far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/**
 * How a connection that goes silent is noticed. A NAT or load-balancer timeout, a failover or a VM
 * migration can drop a connection's state without a FIN or RST: packets just stop. node-postgres has
 * no timeout of its own, so a query on such a connection waited forever (a worker stalled for good
 * after 2,011 deliveries while new connections would have worked). With these, the query fails after
 * `query_timeout`, the pool discards that client, and the next query opens a new connection, which
 * itself gives up after `connectionTimeoutMillis` while the path is still down. TCP keepalive finds
 * idle ones (after the kernel's probe interval, minutes: the query timeout is what acts in seconds).
 * test/worker/silent-database.test.ts cuts the path with a proxy.
 */
export const SILENT_CONNECTION_LIMITS = {
  connectionTimeoutMillis: 5_000,
  query_timeout: 15_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} satisfies pg.PoolConfig;

/**
 * What Hookline's connections call themselves (application_name): pg_stat_activity and a log line's
 * %a tell the dashboard's and the API's reads from the worker's. A connection string's own
 * application_name wins, then PGAPPNAME.
 */
export const CONNECTION_NAMES = { web: 'hookline web', worker: 'hookline worker', other: 'hookline' } as const;

export function createPool(connectionString: string, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...SILENT_CONNECTION_LIMITS,
    ...options,
    application_name: process.env.PGAPPNAME || options.application_name || CONNECTION_NAMES.other,
  });
  // Without a listener, an idle client's error (Postgres restarted, connection killed) is thrown as an
  // uncaught 'error' event and ends the process. The pool drops the broken client; callers retry.
  pool.on('error', (error) => log.warn('idle postgres connection lost', { error }));
  // The pool listens to a client only while it is idle. One whose connection dies in the same socket
  // read that finished its start-up (PostgreSQL's "terminating connection" right behind its
  // ReadyForQuery, when the server stops as a pool connects) emitted 'error' after the pool had
  // handed it over and before its caller could listen, and ended the worker
  // (test/worker/postgres-restart.test.ts, about one run in twenty). So every client listens for its
  // whole life: its failed queries tell the caller, and the pool discards it once given back (it is no
  // longer queryable).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * Runs `work` on a client checked out of `pool`, and gives it back. The connection dying while it is
 * held (Postgres restarting mid-transaction) is emitted as an 'error' event as well as failing the
 * query; createPool's clients always listen (a pool made elsewhere may not), and the event marks the
 * client, which is given back with it so the pool discards it instead of reusing it.
 */
export async function withPoolClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => (lost = error);
  client.on('error', onError);
  try {
    return await work(client);
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

export function createClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString, application_name: process.env.PGAPPNAME || CONNECTION_NAMES.other });
}

/** Replaces the database name of a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
