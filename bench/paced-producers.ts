// The soak's producers: a few connections inserting spice_harvests rows (the pg_net scenario's row,
// its hookline.send trigger firing on each) on a fixed schedule, so the offered rate stays steady
// for as long as the soak runs and what the producers really committed is counted beside it.
// Each connection owns rate/connections of the schedule. On time, a transaction inserts one row (as
// pgbench does); behind schedule, it inserts up to MAX_ROWS_PER_TRANSACTION of the rows that are due,
// so a stall is caught up in small transactions instead of being dropped or bursting.
import pg from 'pg';
import { SPICE_INSERT_ROWS } from './scenarios';

const MAX_ROWS_PER_TRANSACTION = 10;

export interface PacedProducers {
  /** Rows the schedule asked for from the start until `atMs` (performance.now()). */
  offeredBy(atMs: number): number;
  /** Rows committed so far. */
  committed(): number;
  /** Failed inserts so far, and the first error's message. */
  failures(): { count: number; first?: string };
  /** Stops the schedule, waits for the transactions in flight; returns the rows committed. */
  stop(): Promise<number>;
}

export async function startPacedProducers(options: {
  databaseUrl: string;
  rate: number;
  connections: number;
}): Promise<PacedProducers> {
  const { rate, connections } = options;
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      client.on('error', () => {});
      await client.connect();
      return client;
    }),
  );
  const startedAt = performance.now();
  let committed = 0;
  let failed = 0;
  let firstError: string | undefined;
  let running = true;
  const ratePerConnection = rate / connections;

  const loops = clients.map(async (client) => {
    let sent = 0;
    while (running) {
      const due = Math.floor(((performance.now() - startedAt) / 1000) * ratePerConnection);
      if (due > sent) {
        const rows = Math.min(due - sent, MAX_ROWS_PER_TRANSACTION);
        try {
          await client.query(SPICE_INSERT_ROWS, [rows]);
          committed += rows;
        } catch (error) {
          failed++;
          firstError ??= (error as Error).message;
          // A failing database is the soak's result, not a reason to spin: wait a little.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // A failed row is not retried: the schedule moves on and the gap shows as offered > achieved.
        sent += rows;
        continue;
      }
      const nextDueMs = startedAt + ((sent + 1) / ratePerConnection) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextDueMs - performance.now())));
    }
  });

  return {
    offeredBy: (atMs) => Math.floor(((atMs - startedAt) / 1000) * rate),
    committed: () => committed,
    failures: () => ({ count: failed, first: firstError }),
    async stop() {
      running = false;
      await Promise.all(loops);
      await Promise.all(clients.map((client) => client.end().catch(() => {})));
      return committed;
    },
  };
}
