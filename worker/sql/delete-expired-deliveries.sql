-- Retention: deletes up to $2 deliveries that finished more than $1 ms ago, oldest first, with their
-- attempts (no foreign key cascades on the hot tables: migration 20261123170000_write_path_v2).
-- Found per app by creation time (deliveries_app_id_created_at_idx): a delivery that finished before
-- the cutoff was created before it too. No index on updated_at or state: either would make recording
-- a result a non-HOT update (migration 20261124110000_hot_first_attempts). Rows created before the
-- cutoff but finished after it (a long retry schedule) are passed over until their turn.
-- Bounded batches keep each transaction short. SKIP LOCKED: an operator replaying one of these rows at
-- the same moment wins.
WITH candidates AS (
  SELECT old.id
    FROM hookline.apps AS a
    CROSS JOIN LATERAL (
      SELECT d.id
        FROM hookline.deliveries AS d
       WHERE d.app_id = a.id
         AND d.created_at < now() - make_interval(secs => $1::bigint / 1000.0)
         AND d.updated_at < now() - make_interval(secs => $1::bigint / 1000.0)
         AND d.state IN ('succeeded', 'dead', 'cancelled')
       ORDER BY d.created_at
       LIMIT $2
    ) AS old
   LIMIT $2
), doomed AS (
  SELECT id
    FROM hookline.deliveries
   WHERE id IN (SELECT id FROM candidates)
     AND state IN ('succeeded', 'dead', 'cancelled')
     FOR UPDATE SKIP LOCKED
), attempts AS (
  DELETE FROM hookline.attempts AS a
   USING doomed
   WHERE a.delivery_id = doomed.id
)
DELETE FROM hookline.deliveries AS d
 USING doomed
 WHERE d.id = doomed.id
