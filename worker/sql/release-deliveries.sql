-- Parameters: $1 workerId, $2 deliveryIds, $3 dueAts, $4 settledBatchIds.
-- Gives leased deliveries back without spending an attempt: on shutdown for work not yet sent, for a
-- disabled endpoint, while an endpoint's circuit is open, or when a delivery waited too long for a
-- free connection. $2 and $3 are parallel arrays: each delivery is due again at its own time.
-- Fenced by the lease owner alone, like every completion (see record-results.sql for why no state).
-- $4: fan-out batches whose first attempts' outcomes were all written before (worker/leases.ts);
-- their rows held those attempts' lease (fan-out-messages.sql) and go.
-- Crash cost: none; a release that never ran is undone by the lease running out.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH settled_batches AS (
  DELETE FROM hookline.fanout_batches AS b
   WHERE b.id = ANY ($4::bigint[])
     AND b.lease_owner = $1
  RETURNING b.id
)
UPDATE hookline.deliveries AS d
   SET state = 'pending',
       lease_owner = NULL,
       lease_expires_at = NULL,
       next_attempt_at = r.due_at,
       claimable_at = r.due_at,
       updated_at = now()
  FROM unnest($2::text[], $3::timestamptz[]) AS r(id, due_at)
 WHERE d.id = r.id
   AND d.lease_owner = $1
   AND (SELECT count(*) FROM settled_batches) >= 0
