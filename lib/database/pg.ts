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
 * application_name wins, then PGAPPNAME (over Hookline's names only: a name a caller chose stays).
 */
export const CONNECTION_NAMES = { web: 'hookline web', worker: 'hookline worker', other: 'hookline' } as const;

/** The name a connection gets: a name other than Hookline's own as given, else PGAPPNAME or Hookline's. */
export function connectionName(given?: string): string {
  const ours = given === undefined || (Object.values(CONNECTION_NAMES) as string[]).includes(given);
  return ours ? process.env.PGAPPNAME || given || CONNECTION_NAMES.other : given;
}

export function createPool(connectionString: string, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...SILENT_CONNECTION_LIMITS,
    ...options,
    application_name: connectionName(options.application_name),
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
  } catch (error) {
    // A query the client gave up on (query_timeout) still runs in the server: given back, the client
    // was handed to the next caller, whose first query waited behind it and timed out too (the
    // maintenance's chores after a DETACH ... CONCURRENTLY that waited 34 s at 100 M deliveries).
    // Discarded, its connection closes and the server ends the statement when it notices.
    if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) lost ??= error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(lost);
  }
}

/** node-postgres's error for a query past its query_timeout (pg/lib/client.js). */
const QUERY_READ_TIMEOUT = 'Query read timeout';

export function createClient(connectionString: string): pg.Client {
  return new pg.Client({ connectionString, application_name: connectionName() });
}

/** Replaces the database name of a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${database}`;
  return url.toString();
}
