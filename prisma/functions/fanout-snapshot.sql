-- The fan-out's cursor (hookline.fanout_cursor, migration 20261129090000_fanout_by_transaction) and how
-- a fan-out moves it.
--
-- Invariant: a message has been fanned out (its deliveries exist, or are being written in the same
-- transaction as the cursor's new value) exactly when its written_by (the producer's top-level
-- transaction id, pg_current_xact_id()) is visible in hookline.fanout_cursor.fanned_out_through.
-- The messages new to a fan-out whose statement runs with snapshot `current` are therefore those with
--   written_by >= pg_snapshot_xmin(cursor) AND written_by < pg_snapshot_xmax(current)
--   AND pg_visible_in_snapshot(written_by, current) AND NOT pg_visible_in_snapshot(written_by, cursor)
-- (the first two are what messages_written_by_idx reads; below xmin everything is visible in the
-- cursor). A transaction still open in `current` is in its xip and waits for a later fan-out, however
-- many later transactions are fanned out meanwhile: this is what a queue ordered by id could not say
-- without a row per message (~380 B of WAL and ~10 points of producer TPS, migration 20261129090000).
-- Visible in `current` means committed before the statement began: rolled-back transactions leave no
-- rows, and a savepoint's rows carry the top-level id, committed or gone with it.
--
-- A fan-out that takes only part of the new messages (a batch limit) takes whole transactions, in
-- order of id, through the last one it takes, `through`: every new message with written_by <= through.
-- Its cursor's next value must then be exactly "visible in current with xid <= through, or visible in
-- the cursor before", which this function builds as a snapshot:
--   xmax' = greatest(through + 1, xmax(after))
--   xip'  = {x in xip(current), x <= through} UNION {x in xip(after), x > through}
--   xmin' = min(xip'), or xmax' when xip' is empty
-- Why it is exact (after is an earlier cursor, so what is visible in it is visible in current):
--   x <= through: through is visible in current, so x < xmax(current), and x is invisible in both
--     exactly when it is in xip(current); kept in xip' exactly then.
--   through < x < xmax': then xmax' = xmax(after) and x is invisible in after exactly when it is in
--     xip(after); kept in xip' exactly then.
--   x >= xmax': above through, and at or above xmax(after): invisible in both, invisible in S'.
-- `through` NULL: everything new was taken, and the cursor becomes `current` (current_snapshot).
-- test/sql/fanout-snapshot.test.ts checks it against concurrent producers on real PostgreSQL.
CREATE OR REPLACE FUNCTION hookline.fanout_snapshot(after pg_snapshot, current_snapshot pg_snapshot, through xid8)
RETURNS pg_snapshot
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN through IS NULL THEN current_snapshot ELSE (
    WITH xip AS (
      SELECT x FROM pg_catalog.pg_snapshot_xip(current_snapshot) AS x WHERE x <= through
      UNION
      SELECT x FROM pg_catalog.pg_snapshot_xip(after) AS x WHERE x > through
    ), bounds AS (
      SELECT CASE WHEN pg_catalog.pg_snapshot_xmax(after) > through THEN pg_catalog.pg_snapshot_xmax(after)
                  ELSE (through::text::bigint + 1)::text::xid8 END AS xmax
    )
    SELECT pg_catalog.format('%s:%s:%s',
                             coalesce((SELECT x FROM xip ORDER BY x LIMIT 1), bounds.xmax),
                             bounds.xmax,
                             coalesce((SELECT string_agg(x::text, ',' ORDER BY x) FROM xip), ''))::pg_snapshot
      FROM bounds
  ) END
$$;

-- The cursor as this statement's snapshot sees it, for the planner: PL/pgSQL and STABLE, so a custom
-- plan evaluates it while planning (the estimate of a range on a value only known at run time is a
-- fixed 0.5 %) and prices the fan-out's candidate range by the index's real rows. Planned with that
-- default, a backlog of 20,000 in one partition was read whole and sorted for 256 of them
-- (test/worker/record-results-plan.test.ts); priced right, the index is walked in order and stops.
-- The value it returns is the one the fan-out locks (fan-out-messages.sql compares the versions).
CREATE OR REPLACE FUNCTION hookline.fanout_cursor_snapshot() RETURNS pg_snapshot
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT c.fanned_out_through FROM hookline.fanout_cursor AS c);
END $$;
