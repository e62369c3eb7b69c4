-- Parameters: $1 olderThanMs.
-- Retention for the dashboard's history: rollups (per endpoint and per app, per minute and per hour)
-- and queue depth samples older than $1 ms.
-- Each is a few rows per minute, app and endpoint, and every table's key starts with its time, so
-- one range delete per run stays small.
WITH endpoint_minutes AS (
  DELETE FROM hookline.stats_minutely WHERE minute < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), endpoint_hours AS (
  DELETE FROM hookline.stats_hourly WHERE hour < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), app_minutes AS (
  DELETE FROM hookline.stats_app_minutely WHERE minute < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), app_hours AS (
  DELETE FROM hookline.stats_app_hourly WHERE hour < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
), samples AS (
  DELETE FROM hookline.queue_depth_samples WHERE sampled_at < now() - make_interval(secs => $1::bigint / 1000.0)
  RETURNING 1
)
SELECT (SELECT count(*) FROM endpoint_minutes)::int + (SELECT count(*) FROM endpoint_hours)::int
       + (SELECT count(*) FROM app_minutes)::int + (SELECT count(*) FROM app_hours)::int AS rollups,
       (SELECT count(*) FROM samples)::int AS samples
