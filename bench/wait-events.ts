// Samples what the active Postgres backends of one database are waiting on (pg_stat_activity),
// every 50 ms while a case runs. CPU-bound backends show as "running"; a producer ceiling caused by
// a lock (NOTIFY's commit lock, a hot row) shows as Lock / LWLock samples instead.
import pg from 'pg';

export interface WaitEventShare {
  event: string;
  samples: number;
  share: number;
}

export interface WaitEventWatch {
  stop(): Promise<WaitEventShare[]>;
}

export async function watchWaitEvents(databaseUrl: string, intervalMs = 50): Promise<WaitEventWatch> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  const counts = new Map<string, number>();
  let total = 0;
  let running = true;
  // A case that fails before it stops the watch drops its database, and with it this connection: the
  // loop then ends with what it counted instead of rejecting with nobody listening.
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ event: string; backends: number }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') AS event, count(*)::int AS backends
           FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
            AND backend_type = 'client backend' AND wait_event IS DISTINCT FROM 'ClientRead'
          GROUP BY 1`,
      );
      for (const row of rows) {
        counts.set(row.event, (counts.get(row.event) ?? 0) + row.backends);
        total += row.backends;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })().catch(() => {});
  return {
    async stop() {
      running = false;
      await loop;
      await client.end().catch(() => {});
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([event, samples]) => ({ event, samples, share: Math.round((samples / Math.max(1, total)) * 1000) / 10 }));
    },
  };
}
