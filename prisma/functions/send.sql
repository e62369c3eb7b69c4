-- hookline.send(app_id, event_type, payload, idempotency_key): records one event in the caller's
-- transaction, which pays for the message row and nothing more: no queue row. The row's written_by
-- (the caller's transaction id, its column default) is how a worker finds it after the commit
-- (worker/sql/fan-out-messages.sql, migration 20261130090000_fanout_by_transaction); it wakes a
-- sleeping worker itself (prisma/functions/notify-deliveries.sql says why here). Refuses, in the REST API's words,
-- what REST refuses (test/api/ways-in-agree.test.ts): a NULL or non-object payload, one over
-- HOOKLINE_MAX_PAYLOAD_BYTES, an idempotency key outside 1-256 printable ASCII characters, an unknown
-- app, an unknown or archived event type. It is on every producer's insert path, so its checks are the
-- cheapest that say it: jsonb_typeof (reads the root's header) on every call, a regex only when a key
-- is given, the size check only when the stored size says it might matter.
--
-- SECURITY DEFINER: it runs with its owner's rights, so a producer role needs only USAGE on schema
-- hookline (README, "Privileges"), never SELECT on the tables it writes through this function. Its
-- search_path is fixed (every Hookline object below is schema-qualified; pg_temp last so a caller's
-- temporary objects shadow nothing). plpgsql is never inlined, so SECURITY DEFINER costs no inlining
-- here; what it adds is the role switch and search_path set per call (migration
-- 20261128090000_producer_functions_definer).
CREATE OR REPLACE FUNCTION hookline.send(
  app_id text,
  event_type text,
  payload jsonb,
  idempotency_key text DEFAULT NULL
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_column
DECLARE
  v_message_id text;
  v_archived boolean;
  v_bad_at integer;
  v_bad_code text;
BEGIN
  IF payload IS NULL THEN
    RAISE EXCEPTION 'hookline.send: payload must not be NULL (app %, event type %)', app_id, event_type
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF pg_column_size(payload) * 2 > hookline.max_payload_bytes() THEN
    PERFORM hookline.check_payload('hookline.send', payload);
  END IF;
  IF jsonb_typeof(payload) <> 'object' THEN
    RAISE EXCEPTION 'hookline.send: payload must be a JSON object, got %', jsonb_typeof(payload)
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Wrap the value in an object, e.g. jsonb_build_object(''value'', ...).';
  END IF;
  IF idempotency_key IS NOT NULL
     AND (length(idempotency_key) = 0 OR length(idempotency_key) > hookline.max_idempotency_key_length()) THEN
    RAISE EXCEPTION 'hookline.send: idempotency_key must be 1 to % characters, got %',
      hookline.max_idempotency_key_length(), length(idempotency_key)
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass NULL for no idempotency key.';
  END IF;
  IF idempotency_key !~ '^[\x21-\x7e]+$' THEN
    -- The error path only: where the first character outside the range is, and which it is.
    v_bad_at := length(substring(idempotency_key FROM '^[\x21-\x7e]*')) + 1;
    v_bad_code := upper(to_hex(ascii(substr(idempotency_key, v_bad_at, 1))));
    RAISE EXCEPTION 'hookline.send: idempotency_key must be printable ASCII without spaces; character % is U+%',
      v_bad_at, lpad(v_bad_code, greatest(4, length(v_bad_code)), '0')
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Keys are the characters ! to ~ of ASCII (0x21 to 0x7E).';
  END IF;

  IF idempotency_key IS NULL THEN
    -- No key, nothing to conflict with: a plain insert. ON CONFLICT makes every insert speculative
    -- (a second WAL record to confirm it, 48 B per event, and the extra arbiter-index check) even
    -- when the key is NULL and the partial unique index cannot match.
    WITH message AS (
      INSERT INTO hookline.messages AS m (app_id, event_type, payload)
      SELECT t.app_id, t.name, send.payload
        FROM hookline.event_types AS t
       WHERE t.app_id = send.app_id AND t.name = send.event_type AND NOT t.archived
      RETURNING m.id
    )
    SELECT message.id INTO v_message_id FROM message;
  ELSE
    -- The key is claimed first, in hookline.idempotency_keys (unique across all time, which a unique
    -- index on the time-partitioned messages cannot be: migration 20261126130000_time_partitions).
    -- ON CONFLICT waits for a concurrent claim of the same key to commit or roll back, so two racing
    -- callers end with one message. A claim whose message is refused below rolls back with the error.
    v_message_id := hookline.new_id('msg');
    INSERT INTO hookline.idempotency_keys AS k (app_id, idempotency_key, message_id)
    VALUES (send.app_id, send.idempotency_key, v_message_id)
    ON CONFLICT (app_id, idempotency_key) DO NOTHING;
    IF FOUND THEN
      INSERT INTO hookline.messages AS m (id, app_id, event_type, payload, idempotency_key)
      SELECT v_message_id, t.app_id, t.name, send.payload, send.idempotency_key
        FROM hookline.event_types AS t
       WHERE t.app_id = send.app_id AND t.name = send.event_type AND NOT t.archived;
      IF NOT FOUND THEN
        v_message_id := NULL;
      END IF;
    ELSE
      v_message_id := NULL;
    END IF;
  END IF;
  IF v_message_id IS NOT NULL THEN
    -- hookline.wake_sleeping_workers() written out: on the hot path, its query without the call.
    IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers AS w WHERE w.until > now()) THEN
      PERFORM pg_notify('hookline_deliveries', '');
    END IF;
    RETURN v_message_id;
  END IF;

  -- Nothing written. A repeat of an idempotency key answers the first message (even if its event
  -- type was archived since, as the REST API does)...
  IF idempotency_key IS NOT NULL THEN
    SELECT k.message_id INTO v_message_id FROM hookline.idempotency_keys AS k
     WHERE k.app_id = send.app_id AND k.idempotency_key = send.idempotency_key;
    IF FOUND THEN
      RETURN v_message_id;
    END IF;
  END IF;
  -- ...anything else is an error naming what is missing.
  PERFORM 1 FROM hookline.apps AS a WHERE a.id = send.app_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown app %', quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the app first (REST POST /api/v1/apps or the dashboard) and pass its id.';
  END IF;
  SELECT t.archived INTO v_archived
    FROM hookline.event_types AS t WHERE t.app_id = send.app_id AND t.name = send.event_type;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown event type % for app %', quote_literal(event_type), quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the event type first (REST POST /api/v1/apps/{app}/event-types or the dashboard).';
  END IF;
  RAISE EXCEPTION 'hookline.send: event type % of app % is archived', quote_literal(event_type), quote_literal(app_id)
    USING ERRCODE = 'check_violation', HINT = 'Unarchive the event type to send it again.';
END $$;
