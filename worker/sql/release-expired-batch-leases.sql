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
-- worker died.
-- A first attempt has no row until its outcome is written (migration
-- 20261206090000_first_attempts_written_once): those of the batch that still have none are written
-- here, 'pending', under the id the fan-out gave them and their worker sent (hookline.delivery_id), so
-- a receiver deduplicates the next attempt. Which they are: each of the batch's messages' deliveries to
-- each endpoint in the batch's endpoint_ids that the message is for by the endpoint's subscription as
-- it is now. An endpoint that dropped the event type from its subscription between the fan-out and
-- this release does not get it back; one deleted meanwhile neither (its deliveries went with it).
-- Each is looked for by primary key: one written by its worker's flush or release is left alone.
-- Rows a fan-out wrote leased before that migration are given back as before: through deliveries_pkey,
-- each message's within its millisecond (prisma/functions/deliveries-of-message.sql), those still
-- leased to the batch's owner and out of the claim queue.
-- Their worker, if it wakes up afterwards, finds its batch row gone: its flush writes none of those
-- rows (record-results.sql locks the batch row and requires it to be its own).
-- Reads hookline.fanout_batches in full: one row per fan-out whose first attempts are being sent
-- right now, a few dozen at most (a worker holds at most its concurrency of them).
-- Crash cost: none; one statement.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH expired AS (
  SELECT id, after, after_partial_xid, after_partial_id, through, through_partial_xid, through_partial_id, lease_owner,
         endpoint_ids
    FROM hookline.fanout_batches
   WHERE lease_expires_at < now()
   ORDER BY id
   LIMIT 1
     FOR UPDATE SKIP LOCKED
), messages AS MATERIALIZED (
  -- Materialized: inlined, the planner started from every delivery out of the claim index (a backlog's
  -- worth) and checked each one's message, instead of finding the batch's messages first.
  SELECT m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id, e.lease_owner, e.endpoint_ids
    FROM expired AS e
    JOIN hookline.messages AS m
      ON m.written_by >= pg_snapshot_xmin(e.after)
     AND m.written_by <= pg_snapshot_xmax(e.through)
     AND hookline.fanned_out(m.written_by, m.id, e.through, e.through_partial_xid, e.through_partial_id)
     AND NOT hookline.fanned_out(m.written_by, m.id, e.after, e.after_partial_xid, e.after_partial_id)
), unwritten AS (
  -- The first attempts with no row yet: each message's delivery to each endpoint the batch leased one
  -- to that the message is for (hookline.endpoint_takes, enabled or not: a delivery to an endpoint
  -- disabled since waits for it, as any other), under the id the fan-out gave it.
  SELECT hookline.delivery_id(m.id, ep.id) AS id, m.app_id, m.id AS message_id, ep.id AS endpoint_id, m.event_type,
         m.created_at
    FROM messages AS m
    JOIN hookline.endpoints AS ep
      ON ep.id = ANY (m.endpoint_ids) AND ep.app_id = m.app_id
     AND hookline.endpoint_takes(ep.id, ep.event_types, m.event_type, m.target_endpoint_id)
   -- A probe per pair by primary key (why not NOT EXISTS: record-results.sql).
   WHERE (SELECT d.id FROM hookline.deliveries AS d WHERE d.id = hookline.delivery_id(m.id, ep.id)) IS NULL
), written AS (
  INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at,
                                   claimable_at, created_at, updated_at)
  SELECT id, app_id, message_id, endpoint_id, event_type, 'pending', now(), now(), created_at, now()
    FROM unwritten
  RETURNING id
), held AS (
  -- Rows a fan-out wrote leased, before migration 20261206090000_first_attempts_written_once: each
  -- message's deliveries in its range of deliveries_pkey, a probe per message (OFFSET 0 keeps the
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
SELECT (SELECT count(*) FROM deleted)::int AS batches,
       (SELECT count(*) FROM released)::int + (SELECT count(*) FROM written)::int AS deliveries
