-- Parameters: $1 workerId, $2 heldDeliveryIds, $3 heldBatchIds, $4 leaseSeconds.
-- Gives back what is leased to worker $1 that it does not know it holds ($2: the deliveries it
-- holds; $3: the fan-out batches whose first attempts it is sending). A claim or fan-out whose
-- connection dropped after the statement committed leased rows whose ids never reached the worker;
-- without this they waited for the lease to run out (29 s of a 30 s lease in a test) although nothing
-- was sending them. Run once the database answers again after such an error.
-- Claimed deliveries are found in the future part of the claim index (leased rows are claimable when
-- their lease ends), next to scheduled retries; a lost fan-out's first attempts through its batch row,
-- whose lease is ended here for release-expired-batch-leases.sql to give them back. The cost follows
-- the unfinished queue, not the history.
-- Only what was leased before this statement began is a stray ($4, the worker's lease: a lease taken
-- at t ends at t + $4, and now() is this statement's start): $2 and $3 are the worker's holdings when
-- it sent the statement, and one that runs late (its client gave up after 5 s, the server went on)
-- must leave alone what the worker claimed or fanned out since, which it is sending.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH stray_batches AS (
  UPDATE hookline.fanout_batches AS b
     SET lease_expires_at = now() - interval '1 millisecond'
   WHERE b.lease_owner = $1
     AND NOT (b.id = ANY ($3::bigint[]))
     AND b.lease_expires_at <= now() + make_interval(secs => $4)
  RETURNING b.id
)
UPDATE hookline.deliveries AS d
   SET state = 'pending',
       lease_owner = NULL,
       lease_expires_at = NULL,
       next_attempt_at = now(),
       claimable_at = now(),
       updated_at = now()
 WHERE d.claimable_at > now()
   AND d.lease_owner = $1
   AND NOT (d.id = ANY ($2::uuid[]))
   AND d.lease_expires_at <= now() + make_interval(secs => $4)
   AND (SELECT count(*) FROM stray_batches) >= 0
