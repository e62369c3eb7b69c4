-- Parameters: $1 workerId, $2 deliveryIds, $3 leaseSeconds, $4 batchIds.
-- Extends worker $1's leases on deliveries $2, and on the fan-out batches $4 whose first attempts it
-- is sending, by $3 seconds from now. Run every third of a lease while the worker lives, for what it
-- is sending: leases can be short (a frozen or partitioned worker's deliveries come back within one
-- lease, 10 s by default) and still outlast attempts that take longer than one (a 30 s endpoint
-- timeout). A worker that stopped running stops renewing.
-- A first attempt runs under its fan-out's batch row and stays out of the claim index (claimable_at
-- NULL, so that recording it is a HOT update): only its row's lease_expires_at, which no index covers,
-- moves with the batch's: one batch row per fan-out, however many messages it took. A claimed delivery is claimable when its lease ends.
-- Fenced by the lease owner alone and found by primary key, like every completion.
-- Crash cost: none; a renewal that never ran only lets a lease end sooner.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH batches AS (
  UPDATE hookline.fanout_batches AS b
     SET lease_expires_at = now() + make_interval(secs => $3)
   WHERE b.id = ANY ($4::bigint[])
     AND b.lease_owner = $1
  RETURNING b.id
)
UPDATE hookline.deliveries AS d
   SET lease_expires_at = now() + make_interval(secs => $3),
       claimable_at = CASE WHEN d.claimable_at IS NULL THEN NULL ELSE now() + make_interval(secs => $3) END,
       next_attempt_at = CASE WHEN d.claimable_at IS NULL THEN d.next_attempt_at
                              ELSE now() + make_interval(secs => $3) END
 WHERE d.id = ANY ($2::text[])
   AND d.lease_owner = $1
   AND (SELECT count(*) FROM batches) >= 0
RETURNING d.id
