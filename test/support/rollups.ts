// Rollup rows as the worker writes them (worker/sql/record-results.sql): one group of attempts added to
// the per-endpoint and per-app rollups of its minute and of its hour, so tests can set up known stats
// without sending thousands of webhooks.
import type { Pool } from '../../lib/database/pg';

export interface RollupRow {
  minute: Date;
  appId: string;
  endpointId: string;
  outcome: 'succeeded' | 'failed';
  errorClass: string;
  statusCode: number;
  attempts: number;
  /** Counts per bucket of hookline.latency_bucket_bounds_ms(): 15 numbers. */
  latencyBuckets: number[];
}

export async function insertRollup(pool: Pool, row: RollupRow): Promise<void> {
  const add = `SET attempts = s.attempts + excluded.attempts,
                   latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)`;
  await pool.query(
    `WITH endpoint_minute AS (
       INSERT INTO hookline.stats_minutely AS s (minute, app_id, endpoint_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('minute', $1::timestamptz), $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (minute, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE ${add}
     ), endpoint_hour AS (
       INSERT INTO hookline.stats_hourly AS s (hour, app_id, endpoint_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('hour', $1::timestamptz), $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (hour, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE ${add}
     ), app_minute AS (
       INSERT INTO hookline.stats_app_minutely AS s (minute, app_id, outcome, error_class, status_code, attempts, latency_buckets)
       VALUES (date_trunc('minute', $1::timestamptz), $2, $4, $5, $6, $7, $8)
       ON CONFLICT (minute, app_id, outcome, error_class, status_code, shard) DO UPDATE ${add}
     )
     INSERT INTO hookline.stats_app_hourly AS s (hour, app_id, outcome, error_class, status_code, attempts, latency_buckets)
     VALUES (date_trunc('hour', $1::timestamptz), $2, $4, $5, $6, $7, $8)
     ON CONFLICT (hour, app_id, outcome, error_class, status_code, shard) DO UPDATE ${add}`,
    [
      row.minute,
      row.appId,
      row.endpointId,
      row.outcome,
      row.errorClass,
      row.statusCode,
      row.attempts,
      row.latencyBuckets,
    ],
  );
}
