-- hookline.send(app_id, event_type, payload, idempotency_key): records one event in the caller's
-- transaction, which pays for the message row and nothing more: no queue row. The row's written_by
-- (the caller's transaction id, its column default) is how a worker finds it after the commit
-- (worker/sql/fan-out-messages.sql, migration 20261130090000_fanout_by_transaction); it wakes a
-- sleeping worker itself (prisma/functions/notify-deliveries.sql says why here). Refuses, in the REST API's words,
-- what REST refuses (test/api/ways-in-agree.test.ts): a NULL or non-object payload, one over
-- HOOKLINE_MAX_PAYLOAD_BYTES, an idempotency key outside 1-256 printable ASCII characters, an unknown
-- app, an unknown or archived event type. It is on every producer's insert path, so its checks are the
-- cheapest that say it: jsonb_typeof (reads the root's header) on every call, a regex only when a key
-- is given. The size is the payload's length as JSON text, on every call: the stored size bounds
-- nothing (a number like 1e131071 is ~10 B stored and 131,072 characters as text, a control character
-- 1 B and 6, a payload read from a table may arrive compressed), and screening with it let such
-- payloads through at any size. Rendering it costs ~0.75 us a call (50,000 calls, PostgreSQL 15).
--
-- SECURITY DEFINER: it runs with its owner's rights, so a producer role needs only USAGE on schema
-- hookline (README, "Privileges"), never SELECT on the tables it writes through this function.
--
-- Without SET search_path, so every name below is fixed by its text, whatever the caller's search_path:
-- tables and Hookline's functions by schema hookline; built-in functions by pg_catalog.; operators as
-- OPERATOR(pg_catalog.x) (a caller's schema ahead of pg_catalog could otherwise supply its own `=` on
-- text, run with this function's owner's rights; parenthesised, as OPERATOR() binds like any other
-- operator); declared types as pg_catalog.x (a caller's pg_temp is searched first for types). The
-- functions it reaches keep the same rule (hookline.check_payload, hookline.new_id behind the message's
-- id, inlined into this insert). The text arguments are compared in their columns' collations, whatever
-- collation a caller passes (a case-insensitive one would match apps and event types the REST API would
-- not): the app id and the idempotency key in C, as their columns are (migrations
-- 20261203090000_ids_in_c_collation, 20261204090000_idempotency_keys_in_c_collation), the event type
-- in the database's. Named otherwise, an index on the column could not serve the comparison: every
-- call read hookline.event_types whole.
-- test/sql/producer-role.test.ts calls it as a producer whose search_path puts its own copy of every
-- function and operator named here first, with pg_temp types named like the declared ones, and reads
-- these files for anything unqualified. Why not SET search_path, the usual fix: it is set and restored
-- on every call, 24.9 against 23.0 us a call on PostgreSQL 15 (50,000 calls, with the CTE below
-- removed as well; 33.4 against 32.0 on 18, whose search-path cache makes the SET cheap); in pgbench
-- the difference is within the spread. plpgsql is never inlined, so SECURITY DEFINER itself costs only
-- the role switch.
CREATE OR REPLACE FUNCTION hookline.send(
  app_id text,
  event_type text,
  payload jsonb,
  idempotency_key text DEFAULT NULL
) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER AS $$
#variable_conflict use_column
DECLARE
  v_message_id pg_catalog.uuid;
  v_earlier_id pg_catalog.text;
  v_archived pg_catalog.bool;
  v_bad_at pg_catalog.int4;
  v_bad_code pg_catalog.text;
  v_claimed pg_catalog.bool := false;
BEGIN
  IF payload IS NULL THEN
    RAISE EXCEPTION 'hookline.send: payload must not be NULL (app %, event type %)', app_id, event_type
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF pg_catalog.octet_length(payload::pg_catalog.text) OPERATOR(pg_catalog.>) hookline.max_payload_bytes() THEN
    PERFORM hookline.check_payload('hookline.send', payload);  -- raises, in the words every way in uses
  END IF;
  IF pg_catalog.jsonb_typeof(payload) OPERATOR(pg_catalog.<>) 'object' THEN
    RAISE EXCEPTION 'hookline.send: payload must be a JSON object, got %', pg_catalog.jsonb_typeof(payload)
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Wrap the value in an object, e.g. jsonb_build_object(''value'', ...).';
  END IF;
  IF idempotency_key IS NOT NULL
     AND (pg_catalog.length(idempotency_key) OPERATOR(pg_catalog.=) 0
          OR pg_catalog.length(idempotency_key) OPERATOR(pg_catalog.>) hookline.max_idempotency_key_length()) THEN
    RAISE EXCEPTION 'hookline.send: idempotency_key must be 1 to % characters, got %',
      hookline.max_idempotency_key_length(), pg_catalog.length(idempotency_key)
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass NULL for no idempotency key.';
  END IF;
  IF (idempotency_key COLLATE pg_catalog."default") OPERATOR(pg_catalog.!~) '^[\x21-\x7e]+$' THEN
    -- The error path only: where the first character outside the range is, and which it is.
    v_bad_at := pg_catalog.length(pg_catalog.substring(idempotency_key, '^[\x21-\x7e]*')) OPERATOR(pg_catalog.+) 1;
    v_bad_code := pg_catalog.upper(pg_catalog.to_hex(pg_catalog.ascii(pg_catalog.substr(idempotency_key, v_bad_at, 1))));
    RAISE EXCEPTION 'hookline.send: idempotency_key must be printable ASCII without spaces; character % is U+%',
      v_bad_at, pg_catalog.lpad(v_bad_code, greatest(4, pg_catalog.length(v_bad_code)), '0')
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Keys are the characters ! to ~ of ASCII (0x21 to 0x7E).';
  END IF;

  IF idempotency_key IS NULL THEN
    -- No key, nothing to conflict with: a plain insert. ON CONFLICT makes every insert speculative
    -- (a second WAL record to confirm it, 48 B per event, and the extra arbiter-index check) even
    -- when the key is NULL and the partial unique index cannot match.
    -- RETURNING INTO leaves v_message_id NULL when the event type is missing or archived (no row); as
    -- a CTE read by a SELECT INTO, the same insert cost ~1.5 us more a call (50,000 calls, 18).
    INSERT INTO hookline.messages AS m (app_id, event_type, payload)
    SELECT t.app_id, t.name, send.payload
      FROM hookline.event_types AS t
     WHERE t.app_id OPERATOR(pg_catalog.=) (send.app_id COLLATE pg_catalog."C")
       AND t.name OPERATOR(pg_catalog.=) (send.event_type COLLATE pg_catalog."default")
       AND NOT t.archived
    RETURNING m.id INTO v_message_id;
  ELSE
    -- The key is claimed first, in hookline.idempotency_keys (unique across all time, which a unique
    -- index on the time-partitioned messages cannot be: migration 20261126130000_time_partitions).
    -- ON CONFLICT waits for a concurrent claim of the same key to commit or roll back, so two racing
    -- callers end with one message. A claim whose message is refused below rolls back with the error.
    v_message_id := hookline.new_uuid();
    INSERT INTO hookline.idempotency_keys AS k (app_id, idempotency_key, message_id)
    VALUES (send.app_id, send.idempotency_key, v_message_id)
    ON CONFLICT (app_id, idempotency_key) DO NOTHING;
    v_claimed := FOUND;
    IF v_claimed THEN
      INSERT INTO hookline.messages AS m (id, app_id, event_type, payload, idempotency_key)
      SELECT v_message_id, t.app_id, t.name, send.payload, send.idempotency_key
        FROM hookline.event_types AS t
       WHERE t.app_id OPERATOR(pg_catalog.=) (send.app_id COLLATE pg_catalog."C")
         AND t.name OPERATOR(pg_catalog.=) (send.event_type COLLATE pg_catalog."default")
         AND NOT t.archived;
      IF NOT FOUND THEN
        v_message_id := NULL;
      END IF;
    ELSE
      v_message_id := NULL;
    END IF;
  END IF;
  IF v_message_id IS NOT NULL THEN
    -- hookline.wake_sleeping_workers() written out: on the hot path, its query without the call.
    IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers AS w WHERE w.until OPERATOR(pg_catalog.>) pg_catalog.now()) THEN
      PERFORM pg_catalog.pg_notify('hookline_deliveries', '');
    END IF;
    RETURN hookline.public_id('msg', v_message_id);
  END IF;

  -- Nothing written. A repeat of an idempotency key answers the first message (even if its event
  -- type was archived since, as the REST API does)... but not a key this call claimed itself, whose
  -- message was just refused: that claim goes with the error below (answering its id returned a
  -- message that never existed, and kept the key bound to it).
  IF idempotency_key IS NOT NULL AND NOT v_claimed THEN
    SELECT hookline.public_id('msg', k.message_id) INTO v_earlier_id FROM hookline.idempotency_keys AS k
     WHERE k.app_id OPERATOR(pg_catalog.=) (send.app_id COLLATE pg_catalog."C")
       AND k.idempotency_key OPERATOR(pg_catalog.=) (send.idempotency_key COLLATE pg_catalog."C");
    IF FOUND THEN
      RETURN v_earlier_id;
    END IF;
  END IF;
  -- ...anything else is an error naming what is missing.
  PERFORM 1 FROM hookline.apps AS a WHERE a.id OPERATOR(pg_catalog.=) (send.app_id COLLATE pg_catalog."C");
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown app %', pg_catalog.quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the app first (REST POST /api/v1/apps or the dashboard) and pass its id.';
  END IF;
  SELECT t.archived INTO v_archived
    FROM hookline.event_types AS t
   WHERE t.app_id OPERATOR(pg_catalog.=) (send.app_id COLLATE pg_catalog."C")
     AND t.name OPERATOR(pg_catalog.=) (send.event_type COLLATE pg_catalog."default");
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown event type % for app %',
      pg_catalog.quote_literal(event_type), pg_catalog.quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the event type first (REST POST /api/v1/apps/{app}/event-types or the dashboard).';
  END IF;
  RAISE EXCEPTION 'hookline.send: event type % of app % is archived',
    pg_catalog.quote_literal(event_type), pg_catalog.quote_literal(app_id)
    USING ERRCODE = 'check_violation', HINT = 'Unarchive the event type to send it again.';
END $$;
