-- The overview reads rollups per app.
--
-- Measured at 10 M attempts (bench:dashboard: one app, 100 endpoints, a week), the overview over 7
-- days took 612 ms p50 before this migration. Per query: the throughput and latency series 167 ms,
-- the error and status breakdowns 40 ms each (all three sum ~115 k per-endpoint rollup rows), the
-- queue depth series 121 ms and the worst endpoints 116 ms (both rewritten in
-- lib/stats/get-stats.ts), the live queue 50 ms.

-- 1. Rollups without the endpoint dimension. The overview's series and breakdowns never split by
-- endpoint, yet read one row per endpoint per minute or hour: with 100 endpoints, 100 times the rows
-- they need. Per app the same week is ~1 k rows, and the series takes 11 ms instead of 167. The
-- worker writes these in the statement that writes the per-endpoint rollups
-- (worker/sql/record-results.sql), so the two never disagree; filtered by endpoint, the stats still
-- read the per-endpoint tables.
CREATE TABLE hookline.stats_app_minutely (
  minute           timestamptz NOT NULL,
  app_id           text NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  error_class      text NOT NULL DEFAULT '',
  status_code      integer NOT NULL DEFAULT 0,
  attempts         bigint NOT NULL DEFAULT 0,
  duration_ms_sum  double precision NOT NULL DEFAULT 0,
  latency_buckets  bigint[] NOT NULL,
  CONSTRAINT stats_app_minutely_pkey PRIMARY KEY (minute, app_id, outcome, error_class, status_code)
);

CREATE TABLE hookline.stats_app_hourly (
  hour             timestamptz NOT NULL,
  app_id           text NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  error_class      text NOT NULL DEFAULT '',
  status_code      integer NOT NULL DEFAULT 0,
  attempts         bigint NOT NULL DEFAULT 0,
  duration_ms_sum  double precision NOT NULL DEFAULT 0,
  latency_buckets  bigint[] NOT NULL,
  CONSTRAINT stats_app_hourly_pkey PRIMARY KEY (hour, app_id, outcome, error_class, status_code)
);

-- Latency histograms (counts per bucket of hookline.latency_bucket_bounds_ms()): built from durations,
-- added element by element, and summed over rows. The four rollup upserts share these instead of
-- spelling the array arithmetic out each time.
CREATE FUNCTION hookline.latency_histogram(durations_ms double precision[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(coalesce(counted.n, 0) ORDER BY bucket.i)
    FROM generate_series(0, cardinality(hookline.latency_bucket_bounds_ms())) AS bucket(i)
    LEFT JOIN (SELECT width_bucket(d, hookline.latency_bucket_bounds_ms()) AS i, count(*) AS n
                 FROM unnest(durations_ms) AS d
                GROUP BY 1) AS counted USING (i)
$$;

CREATE FUNCTION hookline.add_latency_histograms(a bigint[], b bigint[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_agg(x + y ORDER BY i) FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
$$;

-- STRICT transition function, no initial value: the first row's histogram is the starting sum.
CREATE AGGREGATE hookline.sum_latency_histograms(bigint[]) (
  SFUNC = hookline.add_latency_histograms,
  STYPE = bigint[],
  PARALLEL = SAFE
);

-- History recorded before this migration.
INSERT INTO hookline.stats_app_minutely
       (minute, app_id, outcome, error_class, status_code, attempts, duration_ms_sum, latency_buckets)
SELECT minute, app_id, outcome, error_class, status_code, sum(attempts), sum(duration_ms_sum),
       hookline.sum_latency_histograms(latency_buckets)
  FROM hookline.stats_minutely
 GROUP BY 1, 2, 3, 4, 5;

INSERT INTO hookline.stats_app_hourly
       (hour, app_id, outcome, error_class, status_code, attempts, duration_ms_sum, latency_buckets)
SELECT hour, app_id, outcome, error_class, status_code, sum(attempts), sum(duration_ms_sum),
       hookline.sum_latency_histograms(latency_buckets)
  FROM hookline.stats_hourly
 GROUP BY 1, 2, 3, 4, 5;

-- 2. Dead deliveries of one endpoint (the endpoint page's queue) are counted from the index alone, as
-- an app's already were. The unfinished ones are counted through the claim index and read from the
-- heap: carrying state and ids in the claim index made that count an index-only scan (86 -> 9 ms for
-- 25 k retries scattered over a week of rows), but cost the drain 8 % (2,626 -> 2,409 deliveries/s,
-- the claim 7.9 -> 10.7 ms per batch), and the claim is the hot path.
DROP INDEX hookline.deliveries_dead_idx;
CREATE INDEX deliveries_dead_idx ON hookline.deliveries (app_id, endpoint_id) WHERE state = 'dead';
