-- Messages, deliveries and attempts become tables partitioned by time (issue 22), so retention drops
-- a whole period's tables instead of deleting rows: the first 30-minute soak measured batched DELETE
-- raising WAL from ~136 to 200-255 MB a minute and p99 from ~70 to 83-148 ms at 1,000 events/s.
--
-- The partition key is the id itself. Ids start with 12 hex digits of milliseconds (hookline.new_id),
-- so a range of ids is a range of time, the primary key stays the public id, and every lookup by id
-- (record a result, renew a lease, GET /deliveries/{id}) reaches one partition. Hex digits sort the
-- same in every collation, so the database's own collation orders ids by time.
-- A period is self-contained: a delivery's id carries its message's time, and an attempt's its
-- delivery's (hookline.new_id(prefix, sibling); a CHECK on every partition the worker creates), so a
-- message, its deliveries and their attempts always fall in the same period and go together.
--
-- The existing tables are not copied: each becomes its table's first partition, the legacy one,
-- holding every id before the next minute (an instant ATTACH after one validating scan). The worker's
-- maintenance (worker/time-partitions.ts) creates the periods ahead and drops the old ones; a last
-- partition running to MAXVALUE takes whatever comes after the newest period, so a producer never
-- fails for want of a partition. It is created right after this migration by
-- hookline.ensure_overflow_partitions() (prisma/functions/time-partitions.sql), which the migration
-- runner calls once the function files are applied.

-- 1. Idempotency keys leave the messages table: a unique index on a partitioned table must contain
-- the partition key, and (app_id, idempotency_key) must be unique across all of time. Only keyed
-- messages pay for this table; retention deletes a period's keys when it drops the period.
CREATE TABLE hookline.idempotency_keys (
  app_id          text NOT NULL,
  idempotency_key text NOT NULL,
  message_id      text NOT NULL,
  PRIMARY KEY (app_id, idempotency_key)
);
CREATE INDEX idempotency_keys_message_id_idx ON hookline.idempotency_keys (message_id);
INSERT INTO hookline.idempotency_keys (app_id, idempotency_key, message_id)
SELECT app_id, idempotency_key, id FROM hookline.messages WHERE idempotency_key IS NOT NULL;

-- The boundary between the legacy partitions and the periods after them, kept for the transaction.
SELECT set_config('hookline.legacy_end', (date_trunc('minute', clock_timestamp()) + interval '1 minute')::text, true);

DO $$
DECLARE
  v_suffix text := to_char(current_setting('hookline.legacy_end')::timestamptz AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
  v_table text;
  v_index record;
BEGIN
  FOREACH v_table IN ARRAY ARRAY['messages', 'deliveries', 'attempts'] LOOP
    EXECUTE format('ALTER TABLE hookline.%I RENAME TO %I', v_table, v_table || '_before_' || v_suffix);
    -- The legacy table's indexes give their names up to the parent's, which take them over on ATTACH.
    FOR v_index IN
      SELECT c.relname FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
       WHERE i.indrelid = format('hookline.%I', v_table || '_before_' || v_suffix)::regclass
    LOOP
      EXECUTE format('ALTER INDEX hookline.%I RENAME TO %I', v_index.relname, v_index.relname || '_before_' || v_suffix);
    END LOOP;
    EXECUTE format(
      'CREATE TABLE hookline.%I (LIKE hookline.%I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (id)',
      v_table, v_table || '_before_' || v_suffix);
  END LOOP;
END $$;
-- 2. The parents' indexes: the same as before, so ATTACH takes over the legacy tables' own, except
-- the two unique partial ones (idempotency keys moved to their table; request ids come from a
-- sequence and are unique by construction).
ALTER TABLE hookline.messages ADD PRIMARY KEY (id);
CREATE INDEX messages_app_id_created_at_idx ON hookline.messages (app_id, created_at DESC);
CREATE INDEX messages_app_id_event_type_idx ON hookline.messages (app_id, event_type, created_at DESC);
CREATE INDEX messages_request_id_idx ON hookline.messages (request_id) WHERE request_id IS NOT NULL;

ALTER TABLE hookline.deliveries ADD PRIMARY KEY (id);
CREATE INDEX deliveries_app_id_created_at_idx ON hookline.deliveries (app_id, created_at DESC);
CREATE INDEX deliveries_endpoint_id_created_at_idx ON hookline.deliveries (endpoint_id, created_at DESC);
CREATE INDEX deliveries_message_id_idx ON hookline.deliveries (message_id);
CREATE INDEX deliveries_claim_idx ON hookline.deliveries (claimable_at) WHERE claimable_at IS NOT NULL;
CREATE INDEX deliveries_dead_idx ON hookline.deliveries (app_id, endpoint_id)
  WHERE last_error_class IS NOT NULL AND claimable_at IS NULL;

ALTER TABLE hookline.attempts ADD PRIMARY KEY (id);
CREATE INDEX attempts_app_id_started_at_idx ON hookline.attempts (app_id, started_at DESC);
CREATE INDEX attempts_delivery_id_idx ON hookline.attempts (delivery_id, started_at);

-- 3. The legacy tables join as the first partitions, after one scan each that checks their ids lie
-- before the boundary. The unique partial indexes the parents do not have go; the statement trigger
-- moves to the parent (an insert through the parent fires the parent's statement triggers, not a
-- partition's).
DO $$
DECLARE
  v_legacy_end timestamptz := current_setting('hookline.legacy_end')::timestamptz;
  v_suffix text := to_char(v_legacy_end AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
  v_table record;
BEGIN
  FOR v_table IN SELECT * FROM (VALUES ('messages', 'msg'), ('deliveries', 'dlv'), ('attempts', 'atmpt')) AS t (name, prefix)
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I ATTACH PARTITION hookline.%I FOR VALUES FROM (MINVALUE) TO (%L)',
                   v_table.name, v_table.name || '_before_' || v_suffix,
                   v_table.prefix || '_' || lpad(to_hex((extract(epoch FROM v_legacy_end) * 1000)::bigint), 12, '0'));
  END LOOP;
  EXECUTE format('DROP INDEX hookline.%I', 'messages_app_id_idempotency_key_key_before_' || v_suffix);
  EXECUTE format('DROP INDEX hookline.%I', 'messages_request_id_key_before_' || v_suffix);
  EXECUTE format('DROP TRIGGER deliveries_notify ON hookline.%I', 'deliveries_before_' || v_suffix);
END $$;

CREATE TRIGGER deliveries_notify AFTER INSERT ON hookline.deliveries
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION hookline.notify_claimable_deliveries();

-- 4. Views name tables by oid: the ones over the renamed tables are pointed at the parents, with
-- their definitions unchanged (migrations 20261124110000_hot_first_attempts, 20261125131000_http_response).
-- CREATE OR REPLACE keeps the views built on them (net._http_response) in place.
CREATE OR REPLACE VIEW hookline.unfinished_deliveries AS
  SELECT d.* FROM hookline.deliveries AS d WHERE d.claimable_at IS NOT NULL
  UNION ALL
  SELECT d.*
    FROM hookline.fanout_queue AS q
    JOIN hookline.deliveries AS d ON d.message_id = q.message_id
   WHERE q.lease_owner IS NOT NULL AND d.claimable_at IS NULL AND d.state = 'delivering';

CREATE OR REPLACE VIEW hookline.dead_deliveries AS
  SELECT d.* FROM hookline.deliveries AS d
   WHERE d.last_error_class IS NOT NULL AND d.claimable_at IS NULL AND d.state = 'dead';

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
     WHERE d.message_id = m.id AND d.attempt_count > 0
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
