-- Rollup rows per worker shard (issue 11: more workers never slower). Every result flush of every
-- worker upserted the same four rows (this minute and hour, per endpoint and per app) and held their
-- locks until its commit: with 4 workers draining one endpoint, 27 % of the sampled PostgreSQL backends
-- waited on another transaction's row lock (Lock:transactionid), and the rollup upserts took 39 ms of
-- a 57 ms flush (20k drain, bench --profile). Each worker now writes rows of its own shard (a number it
-- draws at start, 0-1023), so workers never wait on each other's rollups; readers already sum over
-- every row of a range, and do not change. One worker writes as many rows as before.
-- Rows written before this migration are shard 0. Re-keying rebuilds each primary key once.
ALTER TABLE hookline.stats_minutely ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE hookline.stats_minutely DROP CONSTRAINT stats_minutely_pkey,
  ADD CONSTRAINT stats_minutely_pkey PRIMARY KEY (minute, app_id, endpoint_id, outcome, error_class, status_code, shard);
ALTER TABLE hookline.stats_hourly ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE hookline.stats_hourly DROP CONSTRAINT stats_hourly_pkey,
  ADD CONSTRAINT stats_hourly_pkey PRIMARY KEY (hour, app_id, endpoint_id, outcome, error_class, status_code, shard);
ALTER TABLE hookline.stats_app_minutely ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE hookline.stats_app_minutely DROP CONSTRAINT stats_app_minutely_pkey,
  ADD CONSTRAINT stats_app_minutely_pkey PRIMARY KEY (minute, app_id, outcome, error_class, status_code, shard);
ALTER TABLE hookline.stats_app_hourly ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE hookline.stats_app_hourly DROP CONSTRAINT stats_app_hourly_pkey,
  ADD CONSTRAINT stats_app_hourly_pkey PRIMARY KEY (hour, app_id, outcome, error_class, status_code, shard);

-- The dashboard's rollups for a flush's attempts: per endpoint and per app (the overview's, migration
-- 20261123130000_overview_rollups), each per minute and per hour (long ranges read whole hours,
-- migration 20261122160000_stats_hourly). The arrays are parallel, one element per recorded attempt
-- (error_class NULL: a success), all of one worker's shard. Each upsert takes its rows' locks in key
-- order, so two workers sharing a shard cannot deadlock. Returns the rollup rows written. PL/pgSQL so
-- that its plan is kept per connection.
CREATE FUNCTION hookline.add_to_rollups(
  shard smallint, started_at timestamptz[], app_id text[], endpoint_id text[], duration_ms double precision[],
  status_code integer[], error_class text[])
RETURNS integer
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  written integer;
BEGIN
  WITH classified AS (
    SELECT a.started_at, a.app_id, a.endpoint_id, a.duration_ms,
           CASE WHEN a.error_class IS NULL THEN 'succeeded' ELSE 'failed' END AS outcome,
           coalesce(a.error_class, '') AS error_class, coalesce(a.status_code, 0) AS status_code
      FROM unnest(add_to_rollups.started_at, add_to_rollups.app_id, add_to_rollups.endpoint_id,
                  add_to_rollups.duration_ms, add_to_rollups.status_code, add_to_rollups.error_class)
        AS a(started_at, app_id, endpoint_id, duration_ms, status_code, error_class)
  ), endpoint_minutes AS (
    INSERT INTO hookline.stats_minutely AS s
           (minute, app_id, endpoint_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('minute', started_at), app_id, endpoint_id, outcome, error_class, status_code, add_to_rollups.shard,
           count(*), sum(duration_ms), hookline.latency_histogram(array_agg(duration_ms))
      FROM classified GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (minute, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), endpoint_hours AS (
    INSERT INTO hookline.stats_hourly AS s
           (hour, app_id, endpoint_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('hour', started_at), app_id, endpoint_id, outcome, error_class, status_code, add_to_rollups.shard,
           count(*), sum(duration_ms), hookline.latency_histogram(array_agg(duration_ms))
      FROM classified GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (hour, app_id, endpoint_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), app_minutes AS (
    INSERT INTO hookline.stats_app_minutely AS s
           (minute, app_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('minute', started_at), app_id, outcome, error_class, status_code, add_to_rollups.shard,
           count(*), sum(duration_ms), hookline.latency_histogram(array_agg(duration_ms))
      FROM classified GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (minute, app_id, outcome, error_class, status_code, shard) DO UPDATE
       SET attempts = s.attempts + excluded.attempts, duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
           latency_buckets = hookline.add_latency_histograms(s.latency_buckets, excluded.latency_buckets)
    RETURNING 1
  ), app_hours AS (
    INSERT INTO hookline.stats_app_hourly AS s
           (hour, app_id, outcome, error_class, status_code, shard, attempts, duration_ms_sum, latency_buckets)
    SELECT date_trunc('hour', started_at), app_id, outcome, error_class, status_code, add_to_rollups.shard,
           count(*), sum(duration_ms), hookline.latency_histogram(array_agg(duration_ms))
      FROM classified GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
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
