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
-- The index is built before the partitioned one is dropped: the DROP takes an ACCESS EXCLUSIVE lock
-- on every partition, which producers' fan-outs wait behind; the build only a SHARE lock on the legacy
-- partition, where nothing new is written.
DO $$
DECLARE
  v_legacy regclass;
  v_end text;
  v_own_time boolean := false;
BEGIN
  -- A legacy table detached and not yet dropped or reattached (retention's DETACH ... CONCURRENTLY,
  -- interrupted) would be missed below, and its deliveries with it: wait for the maintenance to finish.
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_class AS c
              WHERE c.relnamespace = 'hookline'::regnamespace AND c.relname LIKE 'deliveries\_before\_%'
                AND c.relkind = 'r' AND NOT c.relispartition) THEN
    RAISE EXCEPTION 'a legacy deliveries table is detached from hookline.deliveries (retention was interrupted): start the worker once to finish it, then migrate again';
  END IF;
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
  IF v_own_time THEN
    EXECUTE format('CREATE INDEX deliveries_legacy_message_id_idx ON %s (message_id)', v_legacy);
  END IF;
  DROP INDEX hookline.deliveries_message_id_idx;
END $$;

-- The two views that find deliveries by message state the range too (their definitions otherwise as
-- migrations 20261130090000_fanout_by_transaction and 20261126130000_time_partitions left them); the
-- functions of prisma/functions/deliveries-of-message.sql are defined here first, as views need them
-- to exist, and that file keeps their current text.
CREATE OR REPLACE FUNCTION hookline.delivery_ids_from(message_id text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN substr(message_id, 5, 12) < hookline.legacy_ids_end() THEN ''
              ELSE 'dlv_' || substr(message_id, 5, 12) END
$$;
CREATE OR REPLACE FUNCTION hookline.delivery_ids_before(message_id text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'dlv_' || CASE WHEN substr(message_id, 5, 12) < hookline.legacy_ids_end() THEN hookline.legacy_ids_end()
                        ELSE substr(message_id, 5, 12) || 'g' END
$$;

CREATE OR REPLACE VIEW hookline.unfinished_deliveries AS
  -- The batches' messages first (MATERIALIZED: a few hundred per batch), then each one's deliveries, a
  -- probe per message (OFFSET 0 keeps it a loop): joined as sets, a range known only per row is priced
  -- at 0.5 % of a partition, and hashing a whole partition looked cheaper. As UNFINISHED_CTES of
  -- lib/domain/stats/read-live-queue.ts, which the dashboard's live counts read.
  WITH batch_messages AS MATERIALIZED (
    SELECT m.id, b.lease_owner
      FROM hookline.fanout_batches AS b
      JOIN hookline.messages AS m
        ON m.written_by >= pg_snapshot_xmin(b.after) AND m.written_by <= pg_snapshot_xmax(b.through)
       AND (pg_visible_in_snapshot(m.written_by, b.through)
            OR coalesce(m.written_by = b.through_partial_xid AND m.id <= b.through_partial_id, false))
       AND NOT (pg_visible_in_snapshot(m.written_by, b.after)
                OR coalesce(m.written_by = b.after_partial_xid AND m.id <= b.after_partial_id, false))
  )
  SELECT d.* FROM hookline.deliveries AS d WHERE d.claimable_at IS NOT NULL
  UNION ALL
  SELECT d.*
    FROM batch_messages AS bm
   CROSS JOIN LATERAL (
     SELECT d.* FROM hookline.deliveries AS d
      WHERE d.message_id = bm.id
        AND d.id >= hookline.delivery_ids_from(bm.id)
        AND d.id < hookline.delivery_ids_before(bm.id)
        AND d.lease_owner = bm.lease_owner AND d.claimable_at IS NULL AND d.state = 'delivering'
     OFFSET 0
   ) AS d;

CREATE OR REPLACE VIEW hookline._http_response AS
SELECT m.request_id AS id,
       CASE WHEN a.id IS NULL THEN d.last_status_code ELSE a.status_code END AS status_code,
       a.response_headers ->> 'content-type' AS content_type,
       a.response_headers AS headers,
       a.response_body AS content,
       coalesce(CASE WHEN a.id IS NULL THEN d.last_error_class ELSE a.error_class END = 'timeout', false) AS timed_out,
       CASE WHEN a.id IS NULL THEN d.last_error_class
            WHEN a.error_class IS NULL THEN NULL
            ELSE a.error_class || coalesce(': ' || a.error_message, '')
       END AS error_msg,
       CASE WHEN a.id IS NULL
            THEN d.last_attempt_at + make_interval(secs => coalesce(d.last_duration_ms, 0) / 1000)
            ELSE a.started_at + make_interval(secs => a.duration_ms / 1000)
       END AS created
  FROM hookline.messages AS m
  CROSS JOIN LATERAL (
    -- An implicit endpoint's message has one delivery; the newest attempted one if ever more.
    SELECT d.id, d.attempt_count, d.last_status_code, d.last_error_class, d.last_attempt_at, d.last_duration_ms
      FROM hookline.deliveries AS d
     WHERE d.message_id = m.id
       AND d.id >= hookline.delivery_ids_from(m.id)
       AND d.id < hookline.delivery_ids_before(m.id)
       AND d.attempt_count > 0
     ORDER BY d.created_at DESC, d.id DESC
     LIMIT 1
  ) AS d
  LEFT JOIN LATERAL (
    SELECT a.id, a.status_code, a.error_class, a.error_message, a.response_headers, a.response_body,
           a.started_at, a.duration_ms
      FROM hookline.attempts AS a
     WHERE a.delivery_id = d.id AND a.attempt_number = d.attempt_count
     ORDER BY a.started_at DESC
     LIMIT 1
  ) AS a ON true
 WHERE m.request_id IS NOT NULL;
