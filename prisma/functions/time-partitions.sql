-- Time partitions of messages, deliveries and attempts (migration 20261126130000_time_partitions):
-- the catalog read as periods, and the DDL that adds one. worker/time-partitions.ts decides when:
-- periods ahead of now, the old ones dropped by retention.
-- A partition's bounds are ids: 12 hex digits of milliseconds, after the table's prefix for attempts
-- (text ids), before 20 zeros for messages and deliveries (uuid ids: migration 20261208090000_ids_as_uuid). Every period
-- has one partition in each of the three tables, named <table>_p<start, UTC, YYYYMMDDtHHMI>; the
-- legacy partitions (<table>_before_<end>) start at MINVALUE, the overflow ones (<table>_overflow)
-- end at MAXVALUE.

-- The three tables and their id prefixes: '' for the tables whose ids are uuid.
CREATE OR REPLACE FUNCTION hookline.time_partitioned_tables() RETURNS TABLE (table_name text, prefix text)
LANGUAGE sql IMMUTABLE AS $$
  VALUES ('messages', ''), ('deliveries', ''), ('attempts', 'atmpt')
$$;

-- The first id of `prefix` at time `at`: a partition bound (with prefix '', a uuid's text).
CREATE OR REPLACE FUNCTION hookline.id_at(prefix text, at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN prefix = '' THEN lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') || '00000000000000000000'
              ELSE prefix || '_' || lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') END
$$;

-- The time an id (or a bound) stands for: a text id, or a uuid's text (its dashes taken out).
CREATE OR REPLACE FUNCTION hookline.id_time(id text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_timestamp(('x' || lpad(substr(replace(id, '-', ''), strpos(id, '_') + 1, 12), 16, '0'))::bit(64)::bigint / 1000.0)
$$;

-- The partitions of one table in time order, with the times of their bounds: lower_at NULL for the
-- legacy partition (MINVALUE), upper_at NULL for the overflow partition (MAXVALUE). A partition
-- being detached (DETACH ... CONCURRENTLY, interrupted) is listed with detach_pending.
CREATE OR REPLACE FUNCTION hookline.time_partitions(table_name text)
RETURNS TABLE (partition_name text, lower_at timestamptz, upper_at timestamptz, detach_pending boolean)
LANGUAGE sql STABLE AS $$
  SELECT c.relname::text,
         CASE WHEN b[1] IS NULL THEN NULL ELSE hookline.id_time(b[1]) END,
         CASE WHEN b[2] IS NULL THEN NULL ELSE hookline.id_time(b[2]) END,
         i.inhdetachpending
    FROM pg_catalog.pg_inherits AS i
    JOIN pg_catalog.pg_class AS c ON c.oid = i.inhrelid
   CROSS JOIN LATERAL regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid),
                                   $re$FROM \((?:'([^']*)'|MINVALUE)\) TO \((?:'([^']*)'|MAXVALUE)\)$re$) AS b
   WHERE i.inhparent = format('hookline.%I', table_name)::regclass
   ORDER BY 2 NULLS FIRST
$$;

-- The condition a period of deliveries or attempts holds its rows to: an id of its parent row's time
-- (the first 6 bytes of a uuid are its 12 hex digits of milliseconds; an attempt's text id carries
-- them after its prefix). NULL for messages.
CREATE OR REPLACE FUNCTION hookline.same_time_check(table_name text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE table_name
           WHEN 'deliveries' THEN 'substring(uuid_send(id) FROM 1 FOR 6) = substring(uuid_send(message_id) FROM 1 FOR 6)'
           WHEN 'attempts' THEN 'substr(id, 7, 12) = encode(substring(uuid_send(delivery_id) FROM 1 FOR 6), ''hex'')'
         END
$$;

-- Creates one empty partition of `table_name` for [lower_at, upper_at) (upper_at NULL: the overflow
-- partition, to MAXVALUE) and attaches it. Created outside the parent, then attached: ATTACH takes a
-- SHARE UPDATE EXCLUSIVE lock on the parent, which producers' inserts do not wait for, where CREATE
-- TABLE ... PARTITION OF takes an ACCESS EXCLUSIVE one (the scan ATTACH makes of an empty table is
-- instant). For deliveries and attempts a CHECK constraint holds that an id carries its parent row's
-- time (hookline.new_uuid(sibling), hookline.delivery_id, hookline.new_id(prefix, sibling)): what keeps
-- a period self-contained.
-- No CHECK states the bounds: routing through the parent already keeps rows inside them, and every
-- CHECK costs every insert. PostgreSQL reads a partition's CHECK constraints back from their stored
-- text and plans them once per statement (ExecRelCheck), and a producer's insert is one statement:
-- a bounds CHECK on the messages' periods cost ~8 us of a producer's ~245 us transaction
-- (PostgreSQL 15, perf, 30,000 pgbench inserts through hookline.send; bench/README.md). Where a
-- period's bounds must be proven (attaching it back), DETACH ... CONCURRENTLY has added one
-- (<partition>_id_check) and hookline.drop_bound_checks takes it off again once attached.
CREATE OR REPLACE FUNCTION hookline.add_time_partition(table_name text, lower_at timestamptz, upper_at timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  v_prefix text := (SELECT t.prefix FROM hookline.time_partitioned_tables() AS t WHERE t.table_name = add_time_partition.table_name);
  v_name text := table_name || CASE WHEN upper_at IS NULL THEN '_overflow'
                                    ELSE '_p' || to_char(lower_at AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI') END;
  v_lower text := hookline.id_at(v_prefix, lower_at);
  v_upper text := CASE WHEN upper_at IS NULL THEN NULL ELSE hookline.id_at(v_prefix, upper_at) END;
BEGIN
  IF v_prefix IS NULL THEN
    RAISE EXCEPTION 'hookline.add_time_partition: % is not a time-partitioned table', quote_literal(table_name);
  END IF;
  -- Pages filled (the default fillfactor): no update of a delivery is HOT for the room a page keeps
  -- (migration 20261207100000_deliveries_pages_filled).
  EXECUTE format('CREATE TABLE hookline.%I (LIKE hookline.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                 v_name, table_name);
  IF table_name = 'deliveries' THEN
    EXECUTE format('ALTER TABLE hookline.%I ADD CONSTRAINT %I CHECK (%s)',
                   v_name, v_name || '_same_time', hookline.same_time_check('deliveries'));
  ELSIF table_name = 'attempts' THEN
    EXECUTE format('ALTER TABLE hookline.%I ADD CONSTRAINT %I CHECK (%s)',
                   v_name, v_name || '_same_time', hookline.same_time_check('attempts'));
  END IF;
  EXECUTE format('ALTER TABLE hookline.%I ATTACH PARTITION hookline.%I FOR VALUES FROM (%L) TO (%s)',
                 table_name, v_name, v_lower, coalesce(quote_literal(v_upper), 'MAXVALUE'));
  -- Not analysed while empty, on purpose. Never analysed, a partition is priced at no fewer than 10
  -- pages, which keeps the plans the worker makes once per connection (worker-connections.ts,
  -- force_generic_plan) reading every period by index: analysed empty, a period is priced at one
  -- row, and plans made on a fresh database scanned it whole once it filled
  -- (test/worker/record-results-plan.test.ts fails so, on 18 and 15). The price of the floor: a
  -- read of all of hookline._http_response is priced past jit_above_cost (README says so).
  RETURN v_name;
END $$;

-- Drops the CHECK constraints of one attached partition that only restate its bounds: <partition>_id_check
-- (added by DETACH ... CONCURRENTLY), or _bounds and _upper (added by releases before migration
-- 20261202090000, to every period and to the overflow turned into one). <partition>_same_time and the
-- inherited constraints (deliveries' states and leases) stay. They would cost every insert into the
-- period once it is attached (add_time_partition says how much). Returns how many it dropped.
CREATE OR REPLACE FUNCTION hookline.drop_bound_checks(partition_name text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_constraint text;
  v_dropped integer := 0;
BEGIN
  FOR v_constraint IN
    SELECT k.conname
      FROM pg_catalog.pg_constraint AS k
     WHERE k.conrelid = format('hookline.%I', partition_name)::regclass
       AND k.contype = 'c' AND k.coninhcount = 0
       AND k.conname ~ ('^' || partition_name || '_(bounds|upper|id_check[0-9]*)$')
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I DROP CONSTRAINT %I', partition_name, v_constraint);
    v_dropped := v_dropped + 1;
  END LOOP;
  RETURN v_dropped;
END $$;

-- Gives each table an overflow partition if it has none, from the end of its newest partition: run
-- by the migration runner after every migration and by the worker's maintenance, so ids after the
-- newest period always have a partition to go to. Returns the partitions it created.
-- A table without one is a table just migrated (the overflow is only ever missing between the
-- migration that made the table partitioned and this call, or for a moment in the maintenance), so it
-- first gets one-minute periods up to 15 minutes from now: producers that start right away write into
-- periods, not into the overflow, and the worker's first maintenance has no overflow holding rows to
-- turn into a period (the one step producers would wait for). The maintenance replaces the
-- one-minute periods with its own length from their end on; retention drops them as any other.
CREATE OR REPLACE FUNCTION hookline.ensure_overflow_partitions() RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  v_table text;
  v_end timestamptz;
  v_until timestamptz := date_trunc('minute', clock_timestamp()) + interval '15 minutes';
  v_reference text;
  v_lower timestamptz;
  v_upper timestamptz;
  v_made_overflow boolean;
  v_loose_holds_rows boolean;
BEGIN
  FOR v_table IN SELECT t.table_name FROM hookline.time_partitioned_tables() AS t LOOP
    IF NOT EXISTS (SELECT 1 FROM hookline.time_partitions(v_table) AS p WHERE p.upper_at IS NULL) THEN
      -- An overflow detached to make room for periods and not dropped: the maintenance's DETACH ...
      -- CONCURRENTLY waited past its connection's timeout for a long statement to end (34 s behind
      -- a 93 s queue sample at 100 M deliveries), finished in the server, and the DROP after it never
      -- came. Its name stopped the new overflow, and with it every start (this runs in each
      -- migration, and in the maintenance right after it finishes interrupted detaches). No partition
      -- routes rows to a detached table, so it is empty and goes; one holding rows was detached by
      -- hand, and is left to whoever did.
      IF to_regclass(format('hookline.%I', v_table || '_overflow')) IS NOT NULL THEN
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM hookline.%I)', v_table || '_overflow') INTO v_loose_holds_rows;
        IF v_loose_holds_rows THEN
          RAISE EXCEPTION 'hookline.%_overflow is detached but holds rows; attach it back by hand before maintenance can go on', v_table;
        END IF;
        EXECUTE format('DROP TABLE hookline.%I', v_table || '_overflow');
      END IF;
      SELECT coalesce(max(p.upper_at), date_trunc('minute', clock_timestamp())) INTO v_end
        FROM hookline.time_partitions(v_table) AS p;
      -- Another table has its overflow: the maintenance, which detaches the three empty overflows one
      -- at a time (worker/time-partitions.ts), was cut short between them. This table then gets that
      -- table's periods from its own end, overflow included, so the three keep one set of bounds: with
      -- periods of its own from here (the rule below), extendAhead went on from the messages' new
      -- overflow, and deliveries and attempts were left with no partition for the minutes between.
      SELECT t.table_name INTO v_reference
        FROM hookline.time_partitioned_tables() AS t
       WHERE t.table_name <> v_table
         AND EXISTS (SELECT 1 FROM hookline.time_partitions(t.table_name) AS p
                      WHERE p.upper_at IS NULL AND NOT p.detach_pending)
       LIMIT 1;
      v_made_overflow := false;
      IF v_reference IS NOT NULL THEN
        FOR v_lower, v_upper IN
          SELECT p.lower_at, p.upper_at FROM hookline.time_partitions(v_reference) AS p
           WHERE p.lower_at >= v_end AND NOT p.detach_pending ORDER BY p.lower_at
        LOOP
          EXIT WHEN v_lower <> v_end;  -- not contiguous with this table's end: the rule below
          RETURN NEXT hookline.add_time_partition(v_table, v_lower, v_upper);
          IF v_upper IS NULL THEN
            v_made_overflow := true;
            EXIT;
          END IF;
          v_end := v_upper;
        END LOOP;
      END IF;
      CONTINUE WHEN v_made_overflow;
      -- At most 16 of them; an end already past (never after a migration) is caught up in one.
      IF v_end < v_until - interval '16 minutes' THEN
        RETURN NEXT hookline.add_time_partition(v_table, v_end, v_until - interval '15 minutes');
        v_end := v_until - interval '15 minutes';
      END IF;
      WHILE v_end < v_until LOOP
        RETURN NEXT hookline.add_time_partition(v_table, v_end, date_trunc('minute', v_end) + interval '1 minute');
        v_end := date_trunc('minute', v_end) + interval '1 minute';
      END LOOP;
      RETURN NEXT hookline.add_time_partition(v_table, v_end, NULL);
    END IF;
  END LOOP;
  -- A period of the messages that deliveries or attempts lack: what a maintenance cut short between
  -- the overflows left before the alignment above existed (their periods were made from the
  -- messages' overflow on, and ids between had no partition: every fan-out failed). Retention drops
  -- the three together, so a gap the messages do not have is never wanted. Not where a table of that
  -- name exists: a period detached and not yet attached back is finishInterruptedDetaches' to finish.
  FOR v_table, v_lower, v_upper IN
    SELECT t.table_name, m.lower_at, m.upper_at
      FROM hookline.time_partitioned_tables() AS t, hookline.time_partitions('messages') AS m
     WHERE t.table_name <> 'messages'
       AND m.lower_at IS NOT NULL AND m.upper_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM hookline.time_partitions(t.table_name) AS p
                        WHERE coalesce(p.lower_at, '-infinity') < m.upper_at
                          AND coalesce(p.upper_at, 'infinity') > m.lower_at)
       AND to_regclass(format('hookline.%I', t.table_name || substr(m.partition_name, length('messages') + 1))) IS NULL
     ORDER BY m.lower_at
  LOOP
    RETURN NEXT hookline.add_time_partition(v_table, v_lower, v_upper);
  END LOOP;
END $$;
