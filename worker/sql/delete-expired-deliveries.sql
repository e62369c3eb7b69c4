-- Retention: deletes up to $2 finished deliveries that finished more than $1 ms ago, oldest first,
-- from deliveries_finished_idx, with their attempts (no foreign key cascades on the hot tables:
-- migration 20261123170000_write_path_v2). Bounded batches keep each transaction short and the hot
-- queue untouched: finished rows are never in deliveries_claim_idx, so the claim's cost does not
-- depend on them before or after. SKIP LOCKED: an operator replaying one of these rows at the same
-- moment wins.
WITH doomed AS (
  SELECT id
    FROM hookline.deliveries
   WHERE state IN ('succeeded', 'dead', 'cancelled')
     AND updated_at < now() - make_interval(secs => $1::bigint / 1000.0)
   ORDER BY updated_at
   LIMIT $2
     FOR UPDATE SKIP LOCKED
), attempts AS (
  DELETE FROM hookline.attempts AS a
   USING doomed
   WHERE a.delivery_id = doomed.id
)
DELETE FROM hookline.deliveries AS d
 USING doomed
 WHERE d.id = doomed.id
