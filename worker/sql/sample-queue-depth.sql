-- Parameters: none.
-- Records the queue depth per app and state for the current minute, for the dashboard's queue chart.
-- Every worker tries once a minute; the primary key (sampled_at, app_id, state) with DO NOTHING makes
-- the first one win and the others harmless, and the caller's advisory lock keeps them from even
-- counting at the same time. Unfinished rows are counted from the claim index and the first attempts
-- of leased fan-out batches (hookline.unfinished_deliveries), dead ones from deliveries_dead_idx (hookline.dead_deliveries),
-- so the cost follows the queue, not the history.
-- 'scheduled' is a retry: pending and tried at least once, due or not (the dashboard's "retrying",
-- lib/domain/deliveries/delivery-states.ts, which the live count uses too, so old points and the latest agree).
-- 'pending' is never tried yet ("waiting"). Messages not yet fanned out have no delivery to count:
-- they are one fan-out away, or a few for a transaction larger than one fan-out, which is taken in parts
-- (migration 20261130090000_fanout_by_transaction, worker/sql/fan-out-messages.sql). Not counted at all,
-- so no reader here can count the part of such a transaction already taken twice or not at all.
INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
SELECT date_trunc('minute', now()), app_id, state, count(*)
  FROM (
    SELECT app_id,
           CASE WHEN state = 'delivering' THEN 'delivering'
                WHEN attempt_count > 0 THEN 'scheduled'
                ELSE 'pending' END AS state
      FROM hookline.unfinished_deliveries
    UNION ALL
    SELECT app_id, 'dead' FROM hookline.dead_deliveries
  ) AS queue
 GROUP BY app_id, state
ON CONFLICT (sampled_at, app_id, state) DO NOTHING
RETURNING state, count
