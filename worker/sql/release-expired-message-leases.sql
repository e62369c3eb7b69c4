-- Parameters: none.
-- Gives the first attempts of messages whose queue-row lease ran out (their worker died, froze, or
-- lost its database connection for longer than a lease) back to the claim queue, due now, and deletes
-- those queue rows. Any worker runs it every few seconds; SKIP LOCKED keeps two from doing the same
-- rows. Deliveries already recorded or released (no longer leased to the row's owner, or claimable
-- again) are left alone.
-- A frozen owner that wakes up afterwards finds its deliveries no longer leased to it: its results
-- change nothing (the lease_owner fence of record-results.sql).
-- Reads the queue rows in full: they are what waits to be fanned out plus what workers are sending
-- now, a few thousand at most in steady state (a partial index on the lease would cost every fan-out
-- two more index entries per message).
-- Crash cost: none; one statement.
WITH expired AS (
  SELECT message_id, lease_owner
    FROM hookline.fanout_queue
   WHERE lease_owner IS NOT NULL
     AND lease_expires_at < now()
   LIMIT 1000
     FOR UPDATE SKIP LOCKED
), released AS (
  UPDATE hookline.deliveries AS d
     SET state = 'pending',
         lease_owner = NULL,
         lease_expires_at = NULL,
         next_attempt_at = now(),
         claimable_at = now(),
         updated_at = now()
    FROM expired AS e
   WHERE d.message_id = e.message_id
     AND d.lease_owner = e.lease_owner
     AND d.claimable_at IS NULL
  RETURNING d.id
), deleted AS (
  DELETE FROM hookline.fanout_queue AS q
   USING expired AS e
   WHERE q.message_id = e.message_id
  RETURNING q.message_id
)
SELECT (SELECT count(*) FROM deleted)::int AS messages, (SELECT count(*) FROM released)::int AS deliveries
