-- Parameters: none.
-- Gives the first attempts of fan-out batches whose lease ran out (their worker died, froze, or lost
-- its database connection for longer than a lease) back to the claim queue, due now, and deletes
-- that batch row, one batch per statement (the caller repeats it while one is found). Any worker runs
-- it every few seconds; SKIP LOCKED keeps two from doing the same batch. One at a time because the
-- planner cannot know how many messages a batch's snapshots hold (a range between values known only
-- at run time is priced at 0.5 % of the table): priced for 100 batches at once, PostgreSQL 18 read a
-- 60,000-row deliveries partition whole instead of probing an index for each message
-- (test/worker/record-results-plan.test.ts). A batch's messages are found again by its two cursors
-- (fanned out by `through` and its partial transaction, not by `after` and its partial transaction:
-- hookline.fanned_out, prisma/functions/fanout-snapshot.sql) through messages_written_by_idx, between
-- xmin(after) and xmax(through) (a partial transaction is at most its snapshot's xmax). Exact for a
-- batch that began or ended inside a transaction taken in part: its id range of that transaction is
-- (after_partial_id, through_partial_id]. Cost: the range also walks the messages of after_partial_xid
-- taken before this batch (filtered out), up to the size of that transaction: this runs only after a
-- worker died. Their deliveries through deliveries_pkey, each message's within its millisecond
-- (prisma/functions/deliveries-of-message.sql); only those still leased to the batch's owner and out of
-- the claim queue (claimable_at NULL: a first attempt not yet recorded or released) change.
-- A frozen owner that wakes up afterwards finds its deliveries no longer leased to it: its results
-- change nothing (the lease_owner fence of record-results.sql).
-- Reads hookline.fanout_batches in full: one row per fan-out whose first attempts are being sent
-- right now, a few dozen at most (a worker holds at most its concurrency of them).
-- Crash cost: none; one statement.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH expired AS (
  SELECT id, after, after_partial_xid, after_partial_id, through, through_partial_xid, through_partial_id, lease_owner
    FROM hookline.fanout_batches
   WHERE lease_expires_at < now()
   ORDER BY id
   LIMIT 1
     FOR UPDATE SKIP LOCKED
), messages AS MATERIALIZED (
  -- Materialized: inlined, the planner started from every delivery out of the claim index (a backlog's
  -- worth) and checked each one's message, instead of finding the batch's messages first.
  SELECT m.id, e.lease_owner
    FROM expired AS e
    JOIN hookline.messages AS m
      ON m.written_by >= pg_snapshot_xmin(e.after)
     AND m.written_by <= pg_snapshot_xmax(e.through)
     AND hookline.fanned_out(m.written_by, m.id, e.through, e.through_partial_xid, e.through_partial_id)
     AND NOT hookline.fanned_out(m.written_by, m.id, e.after, e.after_partial_xid, e.after_partial_id)
), held AS (
  -- Each message's deliveries in its range of deliveries_pkey, a probe per message (OFFSET 0 keeps the
  -- LATERAL a loop): joined as sets, a range known only per row is priced at 0.5 % of a partition, and
  -- a partition of millions would have looked cheaper to hash whole.
  SELECT h.id, m.lease_owner
    FROM messages AS m
   CROSS JOIN LATERAL (
     SELECT d.id FROM hookline.deliveries AS d
      WHERE d.message_id = m.id
        AND d.id >= hookline.delivery_ids_from(m.id)
        AND d.id < hookline.delivery_ids_before(m.id)
        AND d.lease_owner = m.lease_owner
        AND d.claimable_at IS NULL
     OFFSET 0
   ) AS h
), released AS (
  UPDATE hookline.deliveries AS d
     SET state = 'pending',
         lease_owner = NULL,
         lease_expires_at = NULL,
         next_attempt_at = now(),
         claimable_at = now(),
         updated_at = now()
    FROM held AS h
   WHERE d.id = h.id
     AND d.lease_owner = h.lease_owner
     AND d.claimable_at IS NULL
  RETURNING d.id
), deleted AS (
  DELETE FROM hookline.fanout_batches AS b
   USING expired AS e
   WHERE b.id = e.id
  RETURNING b.id
)
SELECT (SELECT count(*) FROM deleted)::int AS batches, (SELECT count(*) FROM released)::int AS deliveries
