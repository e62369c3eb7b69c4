-- Time partitions no longer carry a CHECK constraint restating their bounds (issue 22: what a
-- producer pays). PostgreSQL reads a partition's CHECK constraints back from their stored text and
-- plans them once per statement, and a producer's insert through hookline.send is one statement: the
-- bounds CHECK on the messages' periods cost ~8 us of a ~245 us producer transaction (PostgreSQL 15,
-- perf over 30,000 pgbench inserts: ExecConstraints 8.2-8.6 us a call before, 0.2-0.3 after;
-- bench/README.md). Routing through the parent already keeps
-- every row inside its partition's bounds. Where a period's bounds must be proven to attach it without
-- a scan, the worker adds them for that moment (the overflow turned into a period) or DETACH ...
-- CONCURRENTLY has (a period attached back): prisma/functions/time-partitions.sql, worker/time-partitions.ts.
-- Here every attached partition of the three tables loses the constraints that state its bounds
-- (<partition>_bounds, _upper for a period that was the overflow, _id_check from a DETACH ...
-- CONCURRENTLY); <partition>_same_time (a delivery's and an attempt's id carry their parent's time)
-- and the inherited ones (deliveries' states and leases) stay. A period detached and not yet dropped
-- keeps its own, and so does one whose DETACH ... CONCURRENTLY was cut short (still listed, pending):
-- the maintenance finishes that detach, which adds no CHECK of its own when one already states the
-- bounds, and reads the period's bounds from it.
DO $$
DECLARE
  v_check record;
BEGIN
  FOR v_check IN
    SELECT c.relname AS partition_name, k.conname
      FROM pg_catalog.pg_inherits AS i
      JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
      JOIN pg_catalog.pg_constraint AS k ON k.conrelid = c.oid
     WHERE i.inhparent IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass, 'hookline.attempts'::regclass)
       AND NOT i.inhdetachpending
       AND k.contype = 'c' AND k.coninhcount = 0
       AND k.conname ~ ('^' || c.relname || '_(bounds|upper|id_check[0-9]*)$')
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I DROP CONSTRAINT %I', v_check.partition_name, v_check.conname);
  END LOOP;
END $$;
