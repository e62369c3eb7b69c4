-- Extends worker $1's leases on deliveries $2 by $3 seconds from now. Run every third of a lease
-- while the worker lives, for what it is sending: leases can be short (a frozen or partitioned
-- worker's deliveries come back within one lease, 10 s by default) and still outlast attempts that
-- take longer than one (a 30 s endpoint timeout). A worker that stopped running stops renewing.
-- Fenced by the lease owner alone and found by primary key, like every completion.
-- Crash cost: none; a renewal that never ran only lets a lease end sooner.
UPDATE hookline.deliveries AS d
   SET lease_expires_at = now() + make_interval(secs => $3),
       next_attempt_at = now() + make_interval(secs => $3)
 WHERE d.id = ANY ($2::text[])
   AND d.lease_owner = $1
RETURNING d.id
