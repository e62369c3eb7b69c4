-- Retention for the dashboard's history: per-minute and hourly rollups and queue depth samples older
-- than $1 ms.
-- Both are a few rows per minute and endpoint, so one range delete per run stays small.
WITH rollups AS (
  DELETE FROM hookline.stats_minutely WHERE minute < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), hourly_rollups AS (
  DELETE FROM hookline.stats_hourly WHERE hour < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), samples AS (
  DELETE FROM hookline.queue_depth_samples WHERE sampled_at < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
)
SELECT (SELECT count(*) FROM rollups)::int + (SELECT count(*) FROM hourly_rollups)::int AS rollups, (SELECT count(*) FROM samples)::int AS samples
