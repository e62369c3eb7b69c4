-- Dead deliveries not yet counted in an issue, grouped by app, endpoint and error class, for the
-- operations pass (one worker at a time). $1: look-back in seconds before the watermark, because a
-- result is recorded up to a flush (plus an attempt's timeout) after its attempt started: a delivery
-- whose last attempt started before the previous pass may be recorded dead after it. issue_deliveries'
-- primary key makes the overlap harmless.
--
-- No index on deliveries serves "dead since T" (last_attempt_at changes with every result; indexing
-- it would cost the write path its HOT updates, migration 20261124110000_hot_first_attempts). So the
-- endpoints that failed since T come from the per-minute rollups (stats_minutely_minute_idx: a dead
-- delivery's last attempt failed, so its endpoint has a 'failed' row in that minute), and only their
-- dead deliveries are read, through deliveries_dead_idx (app_id, endpoint_id). The cost follows the
-- endpoints failing now and their retained dead deliveries, not the table.
-- Measured (PostgreSQL 18, 1,000,000 deliveries, 50,000 of them dead over 100 endpoints, 5 of those
-- endpoints failing in the window with 500 new dead each): see worker/operations/run-operations-pass.ts.
WITH since AS (
  SELECT dead_scanned_until - make_interval(secs => $1) AS at FROM hookline.operations_state
), failing AS (
  SELECT DISTINCT s.app_id, s.endpoint_id
    FROM hookline.stats_minutely AS s, since
   WHERE s.minute >= date_trunc('minute', since.at) AND s.outcome = 'failed'
), dead AS (
  SELECT d.id, d.app_id, d.endpoint_id, d.last_error_class
    FROM failing AS f
    JOIN hookline.dead_deliveries AS d ON d.app_id = f.app_id AND d.endpoint_id = f.endpoint_id
    CROSS JOIN since
   WHERE d.last_attempt_at >= since.at
)
SELECT d.app_id, d.endpoint_id, d.last_error_class AS error_class,
       array_agg(d.id ORDER BY d.id) AS delivery_ids,
       max(dl.last_status_code) AS last_status_code
  FROM dead AS d
  JOIN hookline.deliveries AS dl ON dl.id = d.id
  LEFT JOIN hookline.issues AS i ON i.subject_id = d.endpoint_id AND i.error_class = d.last_error_class
 WHERE i.id IS NULL
    OR NOT EXISTS (SELECT 1 FROM hookline.issue_deliveries AS x WHERE x.issue_id = i.id AND x.delivery_id = d.id)
 GROUP BY d.app_id, d.endpoint_id, d.last_error_class
 ORDER BY d.app_id, d.endpoint_id, d.last_error_class
