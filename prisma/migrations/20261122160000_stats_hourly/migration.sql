-- Hourly rollups beside the per-minute ones. A week of minutes for 100 endpoints is ~2 M rollup rows
-- (and 15 histogram buckets each), which took the overview's 7-day view seconds to sum; the same week
-- in hours is ~34 k rows. The worker writes both in the statement that records attempts
-- (worker/sql/record-results.sql), so they never disagree; the dashboard reads whole hours from here
-- and the partial hours at the edges of a range from stats_minutely (lib/stats/get-stats.ts).
CREATE TABLE hookline.stats_hourly (
  hour             timestamptz NOT NULL,
  app_id           text NOT NULL,
  endpoint_id      text NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  error_class      text NOT NULL DEFAULT '',
  status_code      integer NOT NULL DEFAULT 0,
  attempts         bigint NOT NULL DEFAULT 0,
  duration_ms_sum  double precision NOT NULL DEFAULT 0,
  latency_buckets  bigint[] NOT NULL,
  CONSTRAINT stats_hourly_pkey PRIMARY KEY (hour, app_id, endpoint_id, outcome, error_class, status_code)
);
CREATE INDEX stats_hourly_app_id_hour_idx ON hookline.stats_hourly (app_id, hour);

-- History recorded before this migration: totals per hour, and the histograms summed bucket by bucket.
WITH totals AS (
  SELECT date_trunc('hour', minute) AS hour, app_id, endpoint_id, outcome, error_class, status_code,
         sum(attempts) AS attempts, sum(duration_ms_sum) AS duration_ms_sum
    FROM hookline.stats_minutely
   GROUP BY 1, 2, 3, 4, 5, 6
), buckets AS (
  SELECT date_trunc('hour', m.minute) AS hour, m.app_id, m.endpoint_id, m.outcome, m.error_class, m.status_code,
         b.i, sum(b.n)::bigint AS n
    FROM hookline.stats_minutely AS m, unnest(m.latency_buckets) WITH ORDINALITY AS b(n, i)
   GROUP BY 1, 2, 3, 4, 5, 6, 7
)
INSERT INTO hookline.stats_hourly
       (hour, app_id, endpoint_id, outcome, error_class, status_code, attempts, duration_ms_sum, latency_buckets)
SELECT t.hour, t.app_id, t.endpoint_id, t.outcome, t.error_class, t.status_code, t.attempts, t.duration_ms_sum,
       array_agg(b.n ORDER BY b.i)
  FROM totals AS t
  JOIN buckets AS b USING (hour, app_id, endpoint_id, outcome, error_class, status_code)
 GROUP BY t.hour, t.app_id, t.endpoint_id, t.outcome, t.error_class, t.status_code, t.attempts, t.duration_ms_sum;
