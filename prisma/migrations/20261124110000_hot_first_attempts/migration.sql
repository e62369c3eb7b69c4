-- A first attempt that succeeds changes no indexed column of its delivery, so recording it is a HOT
-- update: one heap tuple on the same page and no index entry. Before, every result was a new row
-- version in all five indexes of deliveries (pg_walinspect over a 20k drain: 17.4 B-tree leaf inserts
-- per event, 1,641 of its ~3,800 WAL bytes; bench --profile prints this table).
--
-- What had to move out of the indexes, because PostgreSQL gives up HOT when any column an index
-- covers or filters on changes, whatever its value in the partial index before and after:
--   - state: the claim index and the dead index filtered on it.
--   - updated_at: deliveries_finished_idx (retention) indexed it.
--   - the lease expiry of a delivering row: the claim index held it, so a dead worker's deliveries
--     could be claimed again, and a success had to take the row out of that index.

-- 1. When a worker may claim a delivery: its due time while pending, its lease expiry while delivering
-- after a claim. NULL when finished, and while a first attempt runs under its message's lease (2.):
-- the success then leaves the column as it found it. next_attempt_at stays what it was, for people:
-- when the next attempt is, or was, due.
ALTER TABLE hookline.deliveries ADD COLUMN claimable_at timestamptz;
UPDATE hookline.deliveries SET claimable_at = next_attempt_at WHERE state IN ('pending', 'delivering');
DROP INDEX hookline.deliveries_claim_idx;
CREATE INDEX deliveries_claim_idx ON hookline.deliveries (claimable_at) WHERE claimable_at IS NOT NULL;
ALTER TABLE hookline.deliveries
  ADD CONSTRAINT deliveries_claimable_check
  CHECK (CASE state WHEN 'pending' THEN claimable_at IS NOT NULL
                    WHEN 'delivering' THEN true
                    ELSE claimable_at IS NULL END);

-- 2. A fan-out leases its message's queue row instead of deleting it, and writes the message's first
-- deliveries leased to itself with claimable_at NULL. The queue row is the lease they run under: the
-- worker renews it while it sends, and deletes it in the flush that records the last of them. If the
-- worker dies or freezes, the row's lease runs out and any worker gives those deliveries back to the
-- claim queue (worker/sql/release-expired-message-leases.sql).
ALTER TABLE hookline.fanout_queue
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_expires_at timestamptz,
  ADD CONSTRAINT fanout_queue_lease_check CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL));

-- 3. Dead deliveries for the dashboard's counts and recover, found without reading state: a dead
-- delivery failed last (last_error_class; the worker never writes one otherwise, and the constraint
-- keeps it so) and is not claimable. Cancelled deliveries that failed before are in it too; readers
-- filter on state (hookline.dead_deliveries below).
UPDATE hookline.deliveries SET last_error_class = 'unknown' WHERE state = 'dead' AND last_error_class IS NULL;
ALTER TABLE hookline.deliveries
  ADD CONSTRAINT deliveries_dead_check CHECK (state <> 'dead' OR last_error_class IS NOT NULL);
DROP INDEX hookline.deliveries_dead_idx;
CREATE INDEX deliveries_dead_idx ON hookline.deliveries (app_id, endpoint_id)
  WHERE last_error_class IS NOT NULL AND claimable_at IS NULL;

-- 4. Retention finds old finished deliveries per app by creation time (deliveries_app_id_created_at_idx,
-- worker/sql/delete-expired-deliveries.sql) instead of an index on updated_at.
DROP INDEX hookline.deliveries_finished_idx;

-- 4b. Messages too: retention finds orphaned ones per app (worker/sql/delete-orphan-messages.sql), so
-- the index on created_at alone goes, and with it one index entry from every producer's insert.
DROP INDEX hookline.messages_created_at_idx;

-- 5. Room on each page for the recorded version of every row inserted there: at the default
-- fillfactor (100) a fan-out fills its pages and the update has to go to another page, which is not
-- HOT. Measured: 5,000 of 5,000 updates HOT at 50. The table is about twice as large for it; every
-- reader of deliveries goes through an index.
ALTER TABLE hookline.deliveries SET (fillfactor = 50);
-- The same for the queue: a fan-out's lease on rows the producers packed into full pages was a
-- non-HOT update with a new primary-key entry per message. Its rows are few and short-lived.
ALTER TABLE hookline.fanout_queue SET (fillfactor = 50);

-- 6. The live queue and the dead deliveries, for every reader that counts them (the dashboard, the
-- queue depth samples), written once: rows in the claim index, plus first attempts running under a
-- leased queue row (few: what workers hold right now, found through their messages).
CREATE VIEW hookline.unfinished_deliveries AS
  SELECT d.* FROM hookline.deliveries AS d WHERE d.claimable_at IS NOT NULL
  UNION ALL
  SELECT d.*
    FROM hookline.fanout_queue AS q
    JOIN hookline.deliveries AS d ON d.message_id = q.message_id
   WHERE q.lease_owner IS NOT NULL AND d.claimable_at IS NULL AND d.state = 'delivering';

CREATE VIEW hookline.dead_deliveries AS
  SELECT d.* FROM hookline.deliveries AS d
   WHERE d.last_error_class IS NOT NULL AND d.claimable_at IS NULL AND d.state = 'dead';
