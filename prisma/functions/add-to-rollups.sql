-- hookline.add_to_rollups groups a flush's attempts once (issue 11: the cost of a flush). It grouped
-- them four times, once per rollup, each time building an array of every duration and its latency
-- histogram: with 328 attempts of one endpoint, each of the four took ~0.5 ms (PostgreSQL 15, EXPLAIN
-- ANALYZE through auto_explain), 2.3 ms of a 6.6 ms flush. Now the attempts are grouped per minute and
-- endpoint (the finest rollup) and the three others are sums of those few groups, histograms added
-- bucket by bucket, as the dashboard's readers already sum them. Same rows and numbers (a coarser
-- row's duration sum is now a sum of per-minute sums: equal but for floating-point rounding;
-- test/sql/add-to-rollups.test.ts compares both versions); same arguments and return value.
CREATE OR REPLACE FUNCTION hookline.add_to_rollups(
  shard smallint, started_at timestamptz[], app_id text[], endpoint_id text[], duration_ms double precision[],
  status_code integer[], error_class text[])
RETURNS integer
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  written integer;
BEGIN
  WITH minute_groups AS MATERIALIZED (
    SELECT date_trunc('minute', a.started_at) AS minute, a.app_id, a.endpoint_id,
           CASE WHEN a.error_class IS NULL THEN 'succeeded' ELSE 'failed' END AS outcome,
           coalesce(a.error_class, '') AS error_class, coalesce(a.status_code, 0) AS status_code,
           count(*) AS attempts, sum(a.duration_ms) AS duration_ms_sum,
           hookline.latency_histogram(array_agg(a.duration_ms)) AS latency_buckets
      FROM unnest(add_to_rollups.started_at, add_to_rollups.app_id, add_to_rollups.endpoint_id,
                  add_to_rollups.duration_ms, add_to_rollups.status_code, add_to_rollups.error_class)
        AS a(started_at, app_id, endpoint_id, duration_ms, status_code, error_class)
     GROUP BY 1, 2, 3, 4, 5, 6
  ), endpoint_minutes AS (
    INSERT INTO hookline.stats_minutely AS s
           (minute, app_id, endpoint_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT minute, app_id, endpoint_id, outcome, error_class, status_code, add_to_rollups.shard,
           attempts, duration_ms_sum, latency_buckets
      FROM minute_groups ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (minute, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), endpoint_hours AS (
    INSERT INTO hookline.stats_hourly AS s
           (hour, app_id, endpoint_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('hour', minute), app_id, endpoint_id, outcome, error_class, status_code, add_to_rollups.shard,
           sum(attempts)::bigint, sum(duration_ms_sum), hookline.sum_latency_histograms(latency_buckets)
      FROM minute_groups GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (hour, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), app_minutes AS (
    INSERT INTO hookline.stats_app_minutely AS s
           (minute, app_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT minute, app_id, outcome, error_class, status_code, add_to_rollups.shard,
           sum(attempts)::bigint, sum(duration_ms_sum), hookline.sum_latency_histograms(latency_buckets)
      FROM minute_groups GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (minute, app_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), app_hours AS (
    INSERT INTO hookline.stats_app_hourly AS s
           (hour, app_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('hour', minute), app_id, outcome, error_class, status_code, add_to_rollups.shard,
           sum(attempts)::bigint, sum(duration_ms_sum), hookline.sum_latency_histograms(latency_buckets)
      FROM minute_groups GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (hour, app_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM endpoint_minutes) + (SELECT count(*) FROM endpoint_hours)
         + (SELECT count(*) FROM app_minutes) + (SELECT count(*) FROM app_hours)
    INTO written;
  RETURN written;
END;
$$;
