-- deliveries_message_id_idx goes (issue 22: ≤ 1,000 B of WAL per event). Its entry was one of the seven
-- B-tree leaf inserts of a delivered event, 103 B of its ~1,650 B of WAL (a 20k drain on PostgreSQL 18,
-- bench --profile, WAL by relation), and 148 MB at 10 M deliveries: as large as deliveries_pkey.
-- It is not needed: a delivery's id carries its message's time (hookline.new_id(prefix, sibling)), and
-- every partition but the legacy one holds writers to it (the _same_time CHECK of
-- hookline.add_time_partition). So a message's deliveries lie within one millisecond of
-- deliveries_pkey, in one partition, and a lookup by message_id bounded to that millisecond
-- (hookline.delivery_ids_from and delivery_ids_before, prisma/functions/deliveries-of-message.sql)
-- reads the pkey entries of that millisecond: the deliveries of the messages written in it, about ten
-- at 10,000 events/s.
--
-- The legacy partition (the tables as they were before migration 20261126130000_time_partitions, up to
-- the minute it ran) may hold deliveries written before that migration, whose ids carry their own
-- time, not their message's. If it does, it keeps an index on message_id of its own, and the bounds
-- send a lookup for a message of its time range there: hookline.legacy_ids_end() is where it ends, the
-- 12 hex digits of milliseconds of its upper bound, a constant of this database written here once (a
-- partition's bound never changes), so the bounds are IMMUTABLE and fold to constants for a constant
-- message id. If it holds none (a database created since: its legacy partition took the rows of its
-- first minute, written with their message's time; or retention dropped it), every delivery carries
-- its message's time, no message is legacy, and hookline.legacy_ids_end() is '000000000000'.
DO $$
DECLARE
  v_legacy regclass;
  v_end text;
  v_own_time boolean := false;
BEGIN
  SELECT c.oid::regclass,
         (regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), $re$TO \('dlv_([0-9a-f]{12})'\)$re$))[1]
    INTO v_legacy, v_end
    FROM pg_catalog.pg_inherits AS i
    JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'hookline.deliveries'::regclass
     AND pg_catalog.pg_get_expr(c.relpartbound, c.oid) LIKE 'FOR VALUES FROM (MINVALUE)%';
  IF v_legacy IS NOT NULL THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE substr(id, 5, 12) <> substr(message_id, 5, 12))', v_legacy)
      INTO v_own_time;
  END IF;
  EXECUTE format('CREATE FUNCTION hookline.legacy_ids_end() RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L',
                 format('SELECT %L::text', CASE WHEN v_own_time THEN v_end ELSE '000000000000' END));
  DROP INDEX hookline.deliveries_message_id_idx;
  IF v_own_time THEN
    EXECUTE format('CREATE INDEX deliveries_legacy_message_id_idx ON %s (message_id)', v_legacy);
  END IF;
END $$;
