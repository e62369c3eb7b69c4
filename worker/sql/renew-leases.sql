-- Parameters: $1 workerId, $2 deliveryIds, $3 leaseSeconds, $4 batchIds.
-- Extends worker $1's leases on deliveries $2, and on the fan-out batches $4 whose first attempts it
-- is sending, by $3 seconds from now. Run every third of a lease while the worker lives, for what it
-- is sending: leases can be short (a frozen or partitioned worker's deliveries come back within one
-- lease, 10 s by default) and still outlast attempts that take longer than one (a 30 s endpoint
-- timeout). A worker that stopped running stops renewing.
-- A first attempt leased by a fan-out has no row until its outcome is written (migration
-- 20261206090000_first_attempts_written_once): its lease is its fan-out batch's row, renewed here, one
-- row per fan-out however many messages it took; the worker names only deliveries that have rows in
-- $2. Returned: each delivery renewed (id) and each batch renewed (batch_id), so the worker knows which
-- of its first attempts are still its own. A claimed delivery is claimable when its lease ends; a row a
-- fan-out wrote leased before that migration (claimable_at NULL) only has its lease moved.
-- Fenced by the lease owner alone and found by primary key, like every completion.
-- Crash cost: none; a renewal that never ran only lets a lease end sooner.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH batches AS (
  UPDATE hookline.fanout_batches AS b
     SET lease_expires_at = now() + make_interval(secs => $3)
   WHERE b.id = ANY ($4::bigint[])
     AND b.lease_owner = $1
  RETURNING b.id
), deliveries AS (
  UPDATE hookline.deliveries AS d
     SET lease_expires_at = now() + make_interval(secs => $3),
         claimable_at = CASE WHEN d.claimable_at IS NULL THEN NULL ELSE now() + make_interval(secs => $3) END,
         next_attempt_at = CASE WHEN d.claimable_at IS NULL THEN d.next_attempt_at
                                ELSE now() + make_interval(secs => $3) END
   WHERE d.id = ANY ($2::uuid[])
     AND d.lease_owner = $1
     AND (SELECT count(*) FROM batches) >= 0
  RETURNING d.id
)
SELECT id, NULL::text AS batch_id FROM deliveries
UNION ALL
SELECT NULL, id::text FROM batches
