-- Parameters: $1 workerId, $2 limit, $3 leaseSeconds, $4 stillOursIds.
-- Claims up to $2 due deliveries for worker $1 in one round trip, leasing them for $3 seconds.
-- $2 is the worker's free concurrency (capped at the batch size), so a claim never takes more than
-- the worker can start sending now.
-- Due means claimable_at passed: pending and due, or delivering after a claim whose lease ran out (its
-- worker died or froze); claiming sets claimable_at to the lease expiry, so both are one range scan of
-- the partial index deliveries_claim_idx, whose size does not grow with finished rows. (First attempts
-- leased by a fan-out are not in it: their fan-out's batch row holds their lease.)
-- SKIP LOCKED lets any number of workers claim concurrently without waiting on each other.
-- Never one of $4: deliveries this worker is still sending, waiting to send (for a connection to their
-- endpoint), or whose results wait in its flusher. Their lease may have run out (PostgreSQL down
-- longer than a lease); taken again here, by the same owner at the same attempt count, the old
-- result's write passed the flush's fence and ended the new attempt's lease mid-send, and another
-- worker could send it too. A waiting one taken again was held twice: its first copy, once a
-- connection came free, was sent under the new lease, and the second copy right after it
-- (test/worker/waiting-not-taken-again.test.ts). Another worker may take them over (its lease, its
-- owner: the old result is then refused, a waiting copy never sent); this one finishes first.
-- The endpoint's enabled flag and circuit breaker come back with each row, read in this same
-- statement, so the worker never sends on a stale view of an open circuit. A delivery whose endpoint
-- is gone (deleted while its message was being fanned out: the delete's cleanup could not see it) is
-- claimed too, with NULLs there, and the worker deletes it (worker/dispatcher.ts). Joined as a set,
-- the missing endpoint dropped it from the UPDATE, though `due` had picked and locked it: it stayed due
-- and first in the claim index for ever, and enough of them would fill every claim's LIMIT
-- (test/worker/orphan-deliveries.test.ts).
-- Crash cost: none. If the worker dies after this commits, the rows come back when the lease ends;
-- the attempt is not counted, so a worker crash never spends a delivery's retries.
WITH due AS (
  SELECT id, endpoint_id
    FROM hookline.deliveries
   WHERE claimable_at <= now()
     -- NOT IN a subquery, not <> ALL ($4): PostgreSQL hashes the ids once for the statement, where
     -- <> ALL compares every due row with every id (2,000 due rows against 500 ids still ours, 20,000
     -- in the queue, EXPLAIN ANALYZE on 18 and 15: the claim took 33-39 ms with <> ALL, 18-25 ms so,
     -- 15-18 ms without the exclusion). The ids are never NULL, which NOT IN would make exclude all.
     AND id NOT IN (SELECT unnest($4::uuid[]))
   ORDER BY claimable_at
   LIMIT $2
     FOR UPDATE SKIP LOCKED
)
UPDATE hookline.deliveries AS d
   SET state = 'delivering',
       lease_owner = $1,
       lease_expires_at = now() + make_interval(secs => $3),
       claimable_at = now() + make_interval(secs => $3),
       updated_at = now()
  FROM due
  LEFT JOIN hookline.endpoints AS e ON e.id = due.endpoint_id,
       hookline.messages AS m
 -- The due ids as an array too: each period is read by its primary key for exactly those, whatever
 -- its statistics say. Joined to `due` alone, a period analysed while empty (priced at no rows) was
 -- the outer side of the join, all of it read to update 256 (PostgreSQL 15, 20,000 finished rows:
 -- test/worker/record-results-plan.test.ts).
 WHERE d.id = ANY (ARRAY(SELECT id FROM due))
   AND d.id = due.id
   AND m.app_id = d.app_id
   AND m.id = d.message_id
RETURNING d.id, d.app_id, d.endpoint_id, d.message_id, d.attempt_count,
          m.event_type, m.created_at, m.payload::text AS payload, m.traceparent, m.tracestate,
          e.enabled AS endpoint_enabled, e.circuit_state, e.circuit_open_until
