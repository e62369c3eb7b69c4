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
-- Measured with EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL 18 (embedded), 502,500 deliveries of which
-- 27,500 dead over 100 endpoints; 5 endpoints failed in the window, with 500 new dead each: 5 probes
-- of deliveries_dead_idx reading those endpoints' 7,500 dead rows, 5,508 buffers, 28 ms warm and 75 ms
-- cold on the shared 2-core machine. Without OFFSET 0 below: a hash join over all 27,500 dead rows,
-- 18,600 buffers, 250 ms. A minute without failures reads a few pages of the rollup index only.
WITH since AS (
  SELECT dead_scanned_until - make_interval(secs => $1) AS at FROM hookline.operations_state
), failing AS (
  SELECT DISTINCT s.app_id, s.endpoint_id
    FROM hookline.stats_minutely AS s, since
   WHERE s.minute >= date_trunc('minute', since.at) AND s.outcome = 'failed'
), dead AS (
  -- One probe of deliveries_dead_idx per failing endpoint. OFFSET 0 keeps the planner from flattening
  -- the subquery into a hash join over the whole dead index, which it chose without it (estimating 100
  -- failing endpoints where there were 5): 27,500 rows read instead of 7,500 in the measurement above.
  SELECT d.id, d.app_id, d.endpoint_id, d.last_error_class, d.last_status_code
    FROM failing AS f
    CROSS JOIN since
    CROSS JOIN LATERAL (
      SELECT dd.id, dd.app_id, dd.endpoint_id, dd.last_error_class, dd.last_status_code, dd.last_attempt_at
        FROM hookline.dead_deliveries AS dd
       WHERE dd.app_id = f.app_id AND dd.endpoint_id = f.endpoint_id
      OFFSET 0
    ) AS d
   WHERE d.last_attempt_at >= since.at
)
SELECT d.app_id, d.endpoint_id, d.last_error_class AS error_class,
       -- Public ids: they go into the event's data as they are.
       array_agg(hookline.public_id('dlv', d.id) ORDER BY d.id) AS delivery_ids,
       max(d.last_status_code) AS last_status_code
  FROM dead AS d
  LEFT JOIN hookline.issues AS i ON i.subject_id = d.endpoint_id AND i.error_class = d.last_error_class
 WHERE i.id IS NULL
    OR NOT EXISTS (SELECT 1 FROM hookline.issue_deliveries AS x WHERE x.issue_id = i.id AND x.delivery_id = d.id)
 GROUP BY d.app_id, d.endpoint_id, d.last_error_class
 ORDER BY d.app_id, d.endpoint_id, d.last_error_class
