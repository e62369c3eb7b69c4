-- Gives back deliveries leased to worker $1 that it does not know it holds ($2 is what it holds).
-- A claim or fan-out whose connection dropped after the statement committed leased rows whose ids
-- never reached the worker; without this they waited for the lease to run out (29 s of a 30 s lease
-- in a test) although nothing was sending them. Run once the database answers again after such an
-- error. Leased rows are due when their lease ends, so they sit in the future part of the partial
-- claim index, next to scheduled retries: the cost follows the unfinished queue, not the history.
UPDATE hookline.deliveries AS d
   SET state = 'pending',
       lease_owner = NULL,
       lease_expires_at = NULL,
       next_attempt_at = now(),
       updated_at = now()
 WHERE d.state IN ('pending', 'delivering')
   AND d.next_attempt_at > now()
   AND d.lease_owner = $1
   AND NOT (d.id = ANY ($2::text[]))
