-- Parameters: $1 deliveryIds.
-- Where deliveries $1 are now, whose results a flush of this worker could not record because their
-- lease was no longer its own (record-results.sql's fence): so the worker's log can say what happened
-- instead of guessing. Run only after such a flush, which is rare (a worker frozen or cut off for
-- longer than a lease, or a flush whose answer was lost and that was sent again).
--   taken_over       leased to a worker now, which sends them again: another one, or this one again
--                    (its retry claimed while the result waited for a write whose answer was lost)
--   given_back       back in the queue, due again (released by this worker, or by any worker once the
--                    lease had run out): sent again by whichever worker claims them
--   already_finished recorded as finished: by the worker that took them over, or by an earlier write
--                    of these very results whose answer was lost
--   gone             deleted with their endpoint or by retention
SELECT count(*) FILTER (WHERE d.lease_owner IS NOT NULL)::int AS taken_over,
       count(*) FILTER (WHERE d.lease_owner IS NULL AND d.state NOT IN ('succeeded', 'dead', 'cancelled'))::int
         AS given_back,
       count(*) FILTER (WHERE d.lease_owner IS NULL AND d.state IN ('succeeded', 'dead', 'cancelled'))::int
         AS already_finished,
       (cardinality($1::uuid[]) - count(*))::int AS gone
  FROM hookline.deliveries AS d
 WHERE d.id = ANY ($1::uuid[])
