-- Fan-out without a queue row (issue 22): the worker finds new messages by the transaction that wrote
-- them, as PgQ does, instead of by a row hookline.send wrote for it in hookline.fanout_queue.
--
-- Why: the queue row cost producers ~10 points of their no-trigger TPS and ~380 B of WAL per event
-- (its insert, its primary-key entry, the fan-out's lease on it, its delete). Measured in the round
-- before this one, 10 producers kept 51.4 % of their no-trigger TPS with the queue row, 62.5 % with
-- the message alone, 59.3 % with the message, an xid8 column and its index (this design).
--
-- How (the invariants live in the files that keep them):
--   - messages.written_by: the top-level transaction id of the producer that wrote the row
--     (pg_current_xact_id(), which a savepoint does not change), indexed;
--   - hookline.fanout_cursor: one row, the snapshot through which every message has been fanned out
--     (prisma/functions/fanout-snapshot.sql, worker/sql/fan-out-messages.sql);
--   - hookline.fanout_batches: one row per fan-out that leased first attempts to its worker, the lease
--     they run under until the last is recorded (it replaces the per-message lease of the queue row,
--     migration 20261124110000_hot_first_attempts).

-- 1. Producers first. They write a message, then (the release before this one) its queue row: locking
-- messages, then the queue, waits for every producer in flight to commit or roll back and lets none
-- begin until this migration commits, in the order they take the two locks (the reverse order
-- deadlocks with a producer between its two inserts). Old workers' fan-outs wait too.
LOCK TABLE hookline.messages, hookline.fanout_queue IN ACCESS EXCLUSIVE MODE;

-- 2. The column, without rewriting the table: added nullable without a default (a catalog change on
-- every partition), then given its default, which only rows inserted from now on get. Rows already
-- there keep NULL: fanned out already (below: those still queued get this migration's id).
ALTER TABLE hookline.messages ADD COLUMN written_by xid8;
ALTER TABLE hookline.messages ALTER COLUMN written_by SET DEFAULT pg_current_xact_id();

-- Messages still waiting for their fan-out (queued, not leased): written by this migration, as far as
-- the fan-out can tell. The cursor below starts where this migration's transaction is not yet visible,
-- so the first fan-out after its commit takes them, once.
UPDATE hookline.messages AS m
   SET written_by = pg_current_xact_id()
  FROM hookline.fanout_queue AS q
 WHERE q.message_id = m.id
   AND q.lease_owner IS NULL;

-- Partial: the rows older than this migration (NULL) are never looked for, and stay out of it. Built
-- on every partition now; a partition added later gets it when it is attached
-- (hookline.add_time_partition), as every index of the parent. The build reads every message once
-- while producers wait on the lock above: on a large installation, a pause of that length (not
-- measured; the retention period's messages, read sequentially).
-- (written_by, id): the fan-out takes a transaction's messages in id order, and resumes inside one
-- that it took only part of (hookline.fanout_cursor.partial_xid) with one probe, however many of its
-- messages were taken before.
CREATE INDEX messages_written_by_idx ON hookline.messages (written_by, id) WHERE written_by IS NOT NULL;

-- 3. The cursor, at a snapshot in which this transaction is still running: xmax is its own id, and the
-- transactions running now with lower ids stay running in it (none has written a message yet, as this
-- transaction holds messages exclusively, but a producer among them blocked on the lock above writes
-- its message after this commits, and is fanned out when it commits). Everything that committed
-- before is visible in it, so only the messages stamped above and those written from now on are new
-- to the fan-out.
-- partial_xid, partial_through_id: the one transaction taken in part (a transaction of more messages
-- than a fan-out takes), its messages with id <= partial_through_id; NULL when none is.
CREATE TABLE hookline.fanout_cursor (
  singleton boolean PRIMARY KEY DEFAULT true CONSTRAINT fanout_cursor_singleton CHECK (singleton),
  fanned_out_through pg_snapshot NOT NULL,
  partial_xid xid8,
  partial_through_id text,
  CONSTRAINT fanout_cursor_partial CHECK ((partial_xid IS NULL) = (partial_through_id IS NULL))
);
WITH running AS (
  SELECT x FROM pg_snapshot_xip(pg_current_snapshot()) AS x WHERE x < pg_current_xact_id()
)
INSERT INTO hookline.fanout_cursor (fanned_out_through)
SELECT format('%s:%s:%s', coalesce(min(x), pg_current_xact_id()), pg_current_xact_id(),
              coalesce(string_agg(x::text, ',' ORDER BY x), ''))::pg_snapshot
  FROM running;

-- 4. First attempts' leases, one row per fan-out batch instead of one per message: the messages fanned
-- out by the cursor after that fan-out (through, through_partial_*) and not by the one before it
-- (after, after_partial_*: prisma/functions/fanout-snapshot.sql, hookline.fanned_out), found again
-- through messages_written_by_idx if the worker dies. Deleted when the last of the batch's leased
-- deliveries is recorded or released; so the table holds what workers are sending right now.
CREATE TABLE hookline.fanout_batches (
  id                  bigserial PRIMARY KEY,
  after               pg_snapshot NOT NULL,
  after_partial_xid   xid8,
  after_partial_id    text,
  through             pg_snapshot NOT NULL,
  through_partial_xid xid8,
  through_partial_id  text,
  lease_owner         text NOT NULL,
  lease_expires_at    timestamptz NOT NULL
);

-- First attempts running under a leased queue row: given to the claim queue, due now, as
-- release-expired-message-leases.sql did when such a lease ran out. The worker sending them finds
-- them no longer leased to it: its results are fenced off, and each is sent again by whoever claims
-- it (at least once, same webhook-id), as after any lost lease.
UPDATE hookline.deliveries AS d
   SET state = 'pending',
       lease_owner = NULL,
       lease_expires_at = NULL,
       next_attempt_at = now(),
       claimable_at = now(),
       updated_at = now()
  FROM hookline.fanout_queue AS q
 WHERE q.lease_owner IS NOT NULL
   AND d.message_id = q.message_id
   AND d.lease_owner = q.lease_owner
   AND d.claimable_at IS NULL;

-- 5. Readers of the queue. The live queue's first attempts are those leased in a batch, found through
-- the batch's messages (prisma/functions/fanout-snapshot.sql states the set; written out here, as the
-- functions are applied after this migration). Exact: a message of a transaction taken in part is in
-- the batch exactly when the batch's id range of it holds its id. Same columns as before.
CREATE OR REPLACE VIEW hookline.unfinished_deliveries AS
  SELECT d.* FROM hookline.deliveries AS d WHERE d.claimable_at IS NOT NULL
  UNION ALL
  SELECT d.*
    FROM hookline.fanout_batches AS b
    JOIN hookline.messages AS m
      ON m.written_by >= pg_snapshot_xmin(b.after) AND m.written_by <= pg_snapshot_xmax(b.through)
     AND (pg_visible_in_snapshot(m.written_by, b.through)
          OR coalesce(m.written_by = b.through_partial_xid AND m.id <= b.through_partial_id, false))
     AND NOT (pg_visible_in_snapshot(m.written_by, b.after)
              OR coalesce(m.written_by = b.after_partial_xid AND m.id <= b.after_partial_id, false))
    JOIN hookline.deliveries AS d ON d.message_id = m.id
   WHERE d.lease_owner = b.lease_owner AND d.claimable_at IS NULL AND d.state = 'delivering';

-- Workers wake on new messages (statement-level, an empty payload, and only while no worker polls:
-- prisma/functions/notify-deliveries.sql). On the partitioned parent: an insert through it fires it.
DROP TRIGGER fanout_queue_notify ON hookline.fanout_queue;
CREATE TRIGGER messages_notify AFTER INSERT ON hookline.messages
  FOR EACH STATEMENT EXECUTE FUNCTION hookline.notify_deliveries();

-- 6. The queue goes. hookline.send, hookline.http_post, hookline.emit_operational_event,
-- hookline.enqueue_http_request and hookline.http_collect_response stop naming it in their files
-- (prisma/functions/), which the migration runner applies right after this migration, in the same
-- run. Between the two commits (milliseconds) a producer that was waiting on the lock above fails with
-- "relation hookline.fanout_queue does not exist" and its transaction rolls back whole.
DROP TABLE hookline.fanout_queue;
