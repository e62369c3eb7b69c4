-- The fan-out's cursor (hookline.fanout_cursor, migration 20261130090000_fanout_by_transaction) and how
-- a fan-out moves it.
--
-- Invariant: a message has been fanned out (its deliveries exist, or are being written in the same
-- transaction as the cursor's new value, or are first attempts a fan-out batch's row holds until their
-- rows are written: migration 20261206090000_first_attempts_written_once) exactly when hookline.fanned_out(written_by, id, cursor) holds:
-- its written_by (the producer's top-level transaction id, pg_current_xact_id()) is visible in
-- fanout_cursor.fanned_out_through, or it is of the one transaction taken in part, partial_xid, with
-- id <= partial_through_id. partial_xid is never visible in fanned_out_through, and is at most its
-- xmax (below, "the partial bound"), so the snapshot can take it in whole later without listing the
-- transaction ids between its xmax and partial_xid.
-- The messages new to a fan-out whose statement runs with snapshot `current` are therefore those with
--   written_by >= pg_snapshot_xmin(cursor) AND written_by < pg_snapshot_xmax(current)
--   AND pg_visible_in_snapshot(written_by, current) AND NOT hookline.fanned_out(written_by, id, cursor)
-- (the first two are what messages_written_by_idx reads; below xmin everything is visible in the
-- cursor). A transaction still open in `current` is in its xip and waits for a later fan-out, however
-- many later transactions are fanned out meanwhile: this is what a queue ordered by id could not say
-- without a row per message (~380 B of WAL and ~10 points of producer TPS, migration 20261130090000).
-- Visible in `current` means committed before the statement began: rolled-back transactions leave no
-- rows, a savepoint's rows carry the top-level id, committed or gone with it, and a committed
-- transaction gets no new rows, so the order (written_by, id) of its messages never changes.
--
-- A fan-out takes at most a limit of messages (worker/sql/fan-out-messages.sql): first the rest of
-- partial_xid in id order, then the other new messages in (written_by, id) order. Its new cursor is
--   S' = fanout_snapshot(fanout_snapshot_with(after, partial_xid if it finished), current, through)
-- where `through` is the last transaction it took whole among the others, or (last - 1) when it took
-- the last one in part (then that one is the new partial_xid: S' has xmax >= it, the partial bound);
-- when it took only part of the rest of partial_xid, S' is `after` and only partial_through_id moves.
-- fanout_snapshot(after, current, through) is "visible in current with xid <= through, or visible in
-- after", built as a snapshot:
--   xmax' = greatest(through + 1, xmax(after))
--   xip'  = {x in xip(current), x <= through} UNION {x in xip(after), x > through}
--   xmin' = min(xip'), or xmax' when xip' is empty
-- Why it is exact (after is an earlier cursor, so what is visible in it is visible in current):
--   x <= through: through < xmax(current) (it is visible in current, or is one below such a
--     transaction), and x is invisible in both exactly when it is in xip(current); kept in xip'
--     exactly then.
--   through < x < xmax': then xmax' = xmax(after) and x is invisible in after exactly when it is in
--     xip(after); kept in xip' exactly then.
--   x >= xmax': above through, and at or above xmax(after): invisible in both, invisible in S'.
-- Every new transaction <= through with messages was taken: the others are taken in written_by order,
-- and partial_xid is in fanout_snapshot_with's part. Transactions <= through without messages become
-- visible too, which no reader can tell.
-- `through` NULL: everything new was taken, and the cursor becomes `current` (current_snapshot).
-- test/sql/fanout-snapshot.test.ts checks it against concurrent producers on real PostgreSQL.
-- PL/pgSQL, whose statement plans are kept for the session: as a SQL function (not inlinable: its
-- body is a sub-select) it was planned again by every fan-out that called it, 0.43 ms a call over a
-- SELECT 1 on PostgreSQL 15 (pgbench), about 10 % of a fan-out of 64 messages.
CREATE OR REPLACE FUNCTION hookline.fanout_snapshot(after pg_snapshot, current_snapshot pg_snapshot, through xid8)
RETURNS pg_snapshot
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  v_xmax xid8;
  v_xip xid8[];
BEGIN
  IF through IS NULL THEN
    RETURN current_snapshot;
  END IF;
  v_xmax := CASE WHEN pg_catalog.pg_snapshot_xmax(after) > through THEN pg_catalog.pg_snapshot_xmax(after)
                 ELSE (through::text::bigint + 1)::text::xid8 END;
  SELECT pg_catalog.array_agg(xip.x ORDER BY xip.x) INTO v_xip
    FROM (SELECT c.x FROM pg_catalog.pg_snapshot_xip(current_snapshot) AS c(x) WHERE c.x <= through
          UNION
          SELECT a.x FROM pg_catalog.pg_snapshot_xip(after) AS a(x) WHERE a.x > through) AS xip;
  RETURN pg_catalog.format('%s:%s:%s', coalesce(v_xip[1], v_xmax), v_xmax,
                           coalesce(pg_catalog.array_to_string(v_xip, ','), ''))::pg_snapshot;
END $$;

-- `s` with transaction x visible too, for x the partial bound allows (x at most xmax(s)): x leaves the
-- xip, or xmax moves past it. NULL or an x already visible: `s`. Anything above xmax(s) would need
-- every id between listed, and is refused: it would mean the partial bound was broken.
CREATE OR REPLACE FUNCTION hookline.fanout_snapshot_with(s pg_snapshot, x xid8)
RETURNS pg_snapshot
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  v_xmax xid8 := pg_catalog.pg_snapshot_xmax(s);
  v_xip xid8[];
BEGIN
  IF x IS NULL OR pg_catalog.pg_visible_in_snapshot(x, s) THEN
    RETURN s;
  END IF;
  IF x > v_xmax THEN
    RAISE EXCEPTION 'hookline.fanout_snapshot_with: % is above the xmax of %', x, s;
  END IF;
  IF x = v_xmax THEN
    v_xmax := (x::text::bigint + 1)::text::xid8;
  END IF;
  SELECT array_agg(t ORDER BY t) INTO v_xip FROM pg_catalog.pg_snapshot_xip(s) AS t WHERE t <> x;
  RETURN pg_catalog.format('%s:%s:%s', coalesce(v_xip[1], v_xmax), v_xmax,
                           coalesce(pg_catalog.array_to_string(v_xip, ','), ''))::pg_snapshot;
END $$;

-- Whether a message has been fanned out by a cursor (the invariant above): the cursor's snapshot and
-- its transaction taken in part. A plain SQL expression, inlined where it is called. NULL written_by
-- (messages older than migration 20261130090000) gives NULL: callers say what those are.
CREATE OR REPLACE FUNCTION hookline.fanned_out(written_by xid8, id uuid, through pg_snapshot, partial_xid xid8,
                                               partial_through_id uuid)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pg_catalog.pg_visible_in_snapshot(written_by, through)
         OR coalesce(written_by = partial_xid AND id <= partial_through_id, false)
$$;
