// What the soak reads from PostgreSQL once a minute: the results recorded in the minute and their
// enqueue-to-recorded latency, the size of Hookline's tables, tuples, rows deleted and WAL.
import type pg from 'pg';

/**
 * Succeeded and dead deliveries whose result was recorded in [from, to) (database timestamps), with
 * each succeeded one's latency in ms: its result recorded (deliveries.updated_at, set by the flush)
 * minus its message's created_at (the producer's transaction). Found through
 * deliveries_app_id_created_at_idx, looking back `lookbackMinutes` from `from`: a delivery recorded
 * later than that after its fan-out is not counted here, and shows as "not recorded" in the totals.
 */
export async function readRecordedBetween(
  client: pg.ClientBase,
  options: { appId: string; from: string; to: string; lookbackMinutes: number },
): Promise<{ latenciesMs: number[]; dead: number }> {
  const { rows } = await client.query<{ ms: number[] | null; dead: number }>(
    `SELECT array_agg((extract(epoch FROM d.updated_at - m.created_at) * 1000)::float8)
              FILTER (WHERE d.state = 'succeeded') AS ms,
            count(*) FILTER (WHERE d.state = 'dead')::int AS dead
       FROM hookline.deliveries AS d
       JOIN hookline.messages AS m ON m.id = d.message_id
      WHERE d.app_id = $1
        AND d.created_at >= $2::timestamptz - make_interval(mins => $4::int)
        AND d.state IN ('succeeded', 'dead')
        AND d.updated_at >= $2::timestamptz AND d.updated_at < $3::timestamptz`,
    [options.appId, options.from, options.to, options.lookbackMinutes],
  );
  return { latenciesMs: rows[0]?.ms ?? [], dead: rows[0]?.dead ?? 0 };
}

export interface StorageSample {
  /** pg_total_relation_size (heap, indexes, TOAST) summed over every table in schema hookline. */
  tableBytes: number;
  /** The largest tables, partitions counted with their partitioned table. */
  largest: { name: string; bytes: number }[];
  liveTuples: number;
  deadTuples: number;
  /** Rows deleted from messages, deliveries and attempts since the server started (cumulative). */
  deletedRows: number;
  /** Vacuums (auto and manual) of hookline's tables since the server started (cumulative). */
  vacuums: number;
  /** Time partitions of hookline.messages now (one per period; retention drops the old ones). */
  timePartitions: number;
  walLsn: string;
}

export async function readStorage(client: pg.ClientBase): Promise<StorageSample> {
  // Partitions are tables of their own in pg_class ('r'); the partitioned table has no storage ('p').
  const sizes = await client.query<{ name: string; bytes: string }>(
    `SELECT coalesce(pg_partition_root(c.oid), c.oid)::regclass::text AS name,
            sum(pg_total_relation_size(c.oid))::text AS bytes
       FROM pg_class AS c
       JOIN pg_namespace AS n ON n.oid = c.relnamespace
      WHERE n.nspname = 'hookline' AND c.relkind IN ('r', 'm')
      GROUP BY 1
      ORDER BY sum(pg_total_relation_size(c.oid)) DESC`,
  );
  // Deleted rows count the tables retention deletes from (their partitions included), not the fan-out
  // queue, whose every row is deleted by the fan-out that consumes it.
  const stats = await client.query<{
    live: string;
    dead: string;
    deleted: string;
    vacuums: string;
    partitions: string;
    lsn: string;
  }>(
    `SELECT coalesce(sum(n_live_tup), 0)::text AS live, coalesce(sum(n_dead_tup), 0)::text AS dead,
            coalesce(sum(n_tup_del) FILTER (WHERE coalesce(pg_partition_root(relid), relid)::regclass::text
                                              IN ('hookline.messages', 'hookline.deliveries', 'hookline.attempts')),
                     0)::text AS deleted,
            coalesce(sum(autovacuum_count + vacuum_count), 0)::text AS vacuums,
            (SELECT count(*) FROM pg_inherits WHERE inhparent = to_regclass('hookline.messages'))::text AS partitions,
            pg_current_wal_lsn()::text AS lsn
       FROM pg_stat_user_tables
      WHERE schemaname = 'hookline'`,
  );
  const row = stats.rows[0]!;
  const largest = sizes.rows.map((size) => ({ name: size.name, bytes: Number(size.bytes) }));
  return {
    tableBytes: largest.reduce((sum, size) => sum + size.bytes, 0),
    largest: largest.slice(0, 5),
    liveTuples: Number(row.live),
    deadTuples: Number(row.dead),
    deletedRows: Number(row.deleted),
    vacuums: Number(row.vacuums),
    timePartitions: Number(row.partitions),
    walLsn: row.lsn,
  };
}

export async function walBytesBetween(client: pg.ClientBase, from: string, to: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($2, $1)::text AS bytes', [from, to]);
  return Number(rows[0]!.bytes);
}

/** The database's clock now minus `lagSeconds`, as text (microseconds kept). */
export async function databaseNow(client: pg.ClientBase, lagSeconds = 0): Promise<string> {
  const { rows } = await client.query<{ now: string }>(
    `SELECT (clock_timestamp() - make_interval(secs => $1::float8))::text AS now`,
    [lagSeconds],
  );
  return rows[0]!.now;
}

/** Nearest-rank percentile of ascending values. */
export function percentileOf(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return Math.round(value * 10) / 10;
}
