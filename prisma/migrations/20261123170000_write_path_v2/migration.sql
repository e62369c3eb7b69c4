-- Write path v2: the producer's transaction records the event and nothing more.
--
-- Before (measured on PostgreSQL 15, 10 pgbench clients each inserting a row whose trigger calls
-- hookline.send, durable settings, 2 cores): 12-16 % of the TPS without the trigger. Each event wrote a
-- message and one delivery per subscribed endpoint inside the caller's transaction, and every insert
-- share-locked the app and endpoint rows through foreign keys (every producer locking the same app row
-- creates a MultiXact per row), into ~8 indexes on deliveries.
--
-- After: hookline.send writes the message and one narrow row into hookline.fanout_queue; a worker
-- takes queued messages (FOR UPDATE SKIP LOCKED), writes their deliveries already leased to itself (so
-- a first attempt costs no separate claim), and sends them. The producer's cost no longer grows with
-- the number of subscribed endpoints, and no producer waits on a lock another producer holds.
-- Durability is unchanged: the message and its queue row commit with the caller's transaction, and a
-- queue row is deleted only in the transaction that inserts the message's deliveries.

-- 1. No foreign keys on the hot tables. Their checks share-lock the parent row for every inserted
-- row; the cascades they provided are now explicit deletes (lib/apps/delete-app.ts,
-- lib/endpoints/delete-endpoint.ts, worker/sql/delete-expired-deliveries.sql). A delivery whose
-- endpoint was deleted while its message was being fanned out is deleted by the worker that claims it.
ALTER TABLE hookline.messages DROP CONSTRAINT messages_app_id_fkey;
ALTER TABLE hookline.deliveries DROP CONSTRAINT deliveries_message_id_fkey;
ALTER TABLE hookline.deliveries DROP CONSTRAINT deliveries_endpoint_id_fkey;
ALTER TABLE hookline.attempts DROP CONSTRAINT attempts_delivery_id_fkey;

-- 2. Fewer indexes on deliveries. (app_id, state, created_at) served only the explorer's state filter,
-- which the partial claim and dead indexes serve for the states worth filtering; it was also the index
-- PostgreSQL 15 chose to update a flush's deliveries through a nested loop over every row in
-- 'delivering' (500 results: 21 ms by primary key, 2,757 ms with a 20,000-row backlog).
DROP INDEX hookline.deliveries_app_id_state_idx;

-- 3. A delivery is leased exactly while it is 'delivering'. The worker's writes are fenced by
-- lease_owner alone (worker/sql/record-results.sql), which no index but the primary key can serve, so
-- every PostgreSQL version looks each result up by primary key; this constraint makes that fence mean
-- "still delivering, and still ours".
UPDATE hookline.deliveries SET lease_owner = NULL, lease_expires_at = NULL
 WHERE state <> 'delivering' AND lease_owner IS NOT NULL;
ALTER TABLE hookline.deliveries
  ADD CONSTRAINT deliveries_lease_check CHECK ((state = 'delivering') = (lease_owner IS NOT NULL)) NOT VALID;
ALTER TABLE hookline.deliveries VALIDATE CONSTRAINT deliveries_lease_check;

-- 4. Messages waiting to be fanned out. Narrow on purpose: the producer pays one heap tuple and one
-- index entry for it; the worker deletes it when the deliveries exist. Ordered by message id, which
-- sorts by creation time, so the oldest events go first.
CREATE TABLE hookline.fanout_queue (
  message_id  text PRIMARY KEY
);

-- A message aimed at one endpoint rather than at every subscriber of its event type: hookline.http_post
-- (each URL is its own implicit endpoint). NULL for hookline.send and REST messages.
ALTER TABLE hookline.messages ADD COLUMN target_endpoint_id text;

-- Workers wake on new queue rows (statement-level, and only while no worker is polling: migration
-- 20261122170000_notify_only_idle_workers). The deliveries trigger stays for replays and test events.
CREATE TRIGGER fanout_queue_notify AFTER INSERT ON hookline.fanout_queue
  FOR EACH STATEMENT EXECUTE FUNCTION hookline.notify_deliveries();

-- 4b. Cheaper ids, same shape: 12 hex digits of milliseconds, then 20 random hex digits (80 bits from
-- random(), seeded per backend from a strong source). The first version built them from
-- gen_random_uuid() and numeric arithmetic: 7-17 us per id against 1-4 us now, measured back to back
-- on PostgreSQL 15 (100,000 ids), in a producer's insert that costs ~17 us besides. Ids are names,
-- not secrets: keys and signing secrets are drawn elsewhere.
CREATE OR REPLACE FUNCTION hookline.new_id(prefix text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || '_'
      || lpad(to_hex(floor(date_part('epoch', clock_timestamp()) * 1000)::bigint), 12, '0')
      || lpad(to_hex(floor(random() * 4294967296)::bigint), 8, '0')
      || lpad(to_hex(floor(random() * 4294967296)::bigint), 8, '0')
      || lpad(to_hex(floor(random() * 65536)::int), 4, '0')
$$;

-- 5. One set of limits for every way in. REST checks the request body against
-- HOOKLINE_MAX_PAYLOAD_BYTES; the SQL ways in check the payload here. Hookline replaces this function
-- at start with the configured value (lib/ops/apply-limits.ts), so the number lives in one place.
CREATE FUNCTION hookline.max_payload_bytes() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 1048576 $$;

-- Idempotency keys: 1 to 256 characters, as the REST API's Idempotency-Key header.
CREATE FUNCTION hookline.max_idempotency_key_length() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 256 $$;

-- Raises when a payload is larger than hookline.max_payload_bytes() as JSON text. pg_column_size (the
-- stored size, no serialisation) screens first, so a typical payload costs no text conversion.
CREATE FUNCTION hookline.check_payload(caller text, payload jsonb) RETURNS void
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_bytes bigint;
BEGIN
  IF pg_column_size(payload) * 2 > hookline.max_payload_bytes() THEN
    v_bytes := octet_length(payload::text);
    IF v_bytes > hookline.max_payload_bytes() THEN
      RAISE EXCEPTION '%: payload is % bytes as JSON, more than the limit of % bytes', caller, v_bytes,
        hookline.max_payload_bytes()
        USING ERRCODE = 'program_limit_exceeded',
              HINT = 'Send a reference to large data instead, or raise HOOKLINE_MAX_PAYLOAD_BYTES.';
    END IF;
  END IF;
END $$;

-- 6. hookline.send: validate, write the message and its queue row. On the hot path that is one
-- statement: the message is inserted only if the app has the event type, unarchived (an event type
-- implies its app: foreign key), and its queue row with it. Four statements before (app, event type,
-- message, queue row), each a round through plpgsql's executor. Only when nothing was written does
-- it look for why: an earlier message with the same idempotency key, or what is missing.
CREATE OR REPLACE FUNCTION hookline.send(
  app_id text,
  event_type text,
  payload jsonb,
  idempotency_key text DEFAULT NULL
) RETURNS text
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_message_id text;
  v_archived boolean;
BEGIN
  IF payload IS NULL THEN
    RAISE EXCEPTION 'hookline.send: payload must not be NULL (app %, event type %)', app_id, event_type
      USING ERRCODE = 'null_value_not_allowed';
  END IF;
  IF pg_column_size(payload) * 2 > hookline.max_payload_bytes() THEN
    PERFORM hookline.check_payload('hookline.send', payload);
  END IF;
  IF idempotency_key IS NOT NULL
     AND (length(idempotency_key) = 0 OR length(idempotency_key) > hookline.max_idempotency_key_length()) THEN
    RAISE EXCEPTION 'hookline.send: idempotency_key must be 1 to % characters, got %',
      hookline.max_idempotency_key_length(), length(idempotency_key)
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass NULL for no idempotency key.';
  END IF;

  -- ON CONFLICT waits for a concurrent insert of the same key to commit or roll back, so two racing
  -- callers end with one message.
  WITH message AS (
    INSERT INTO hookline.messages AS m (app_id, event_type, payload, idempotency_key)
    SELECT t.app_id, t.name, send.payload, send.idempotency_key
      FROM hookline.event_types AS t
     WHERE t.app_id = send.app_id AND t.name = send.event_type AND NOT t.archived
    ON CONFLICT (app_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING m.id
  ), queued AS (
    INSERT INTO hookline.fanout_queue (message_id) SELECT id FROM message RETURNING message_id
  )
  SELECT q.message_id INTO v_message_id FROM queued AS q;
  IF v_message_id IS NOT NULL THEN
    RETURN v_message_id;
  END IF;

  -- Nothing written. A repeat of an idempotency key answers the first message (even if its event
  -- type was archived since, as the REST API does)...
  IF idempotency_key IS NOT NULL THEN
    SELECT m.id INTO v_message_id FROM hookline.messages AS m
     WHERE m.app_id = send.app_id AND m.idempotency_key = send.idempotency_key;
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

-- 7. hookline.http_post, the pg_net drop-in: the same change (message + queue row, aimed at its
-- implicit endpoint), and the same payload limit as hookline.send.
CREATE OR REPLACE FUNCTION hookline.http_post(
  url text,
  body jsonb DEFAULT '{}'::jsonb,
  params jsonb DEFAULT '{}'::jsonb,
  headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer DEFAULT 5000
) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_variable
DECLARE
  v_app_id constant text := hookline.http_post_app_id();
  v_url text;
  v_query text;
  v_headers jsonb := '{}'::jsonb;
  v_header record;
  v_key text;
  v_endpoint_id text;
  v_enabled boolean;
  v_message_id text;
  v_request_id bigint;
BEGIN
  IF url IS NULL OR url !~* '^https?://[^/?#\s]+([/?#]\S*)?$' THEN
    RAISE EXCEPTION 'hookline.http_post: url must be an absolute http:// or https:// URL without spaces, got %',
      coalesce(quote_literal(url), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF body IS NULL THEN
    RAISE EXCEPTION 'hookline.http_post: body must not be NULL (url %)', quote_literal(url)
      USING ERRCODE = 'null_value_not_allowed', HINT = 'Pass ''{}''::jsonb for an empty body.';
  END IF;
  PERFORM hookline.check_payload('hookline.http_post', body);
  IF timeout_milliseconds IS NULL OR timeout_milliseconds NOT BETWEEN 1 AND 300000 THEN
    RAISE EXCEPTION 'hookline.http_post: timeout_milliseconds must be from 1 to 300000, got %',
      coalesce(timeout_milliseconds::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF params IS NOT NULL AND jsonb_typeof(params) <> 'object' THEN
    RAISE EXCEPTION 'hookline.http_post: params must be a JSON object of query parameters, got %', params
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF headers IS NOT NULL AND jsonb_typeof(headers) <> 'object' THEN
    RAISE EXCEPTION 'hookline.http_post: headers must be a JSON object of header names to values, got %', headers
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- Header names are case-insensitive: store them lower-case so that the worker's own
  -- content-type replaces the caller's instead of being sent twice.
  FOR v_header IN SELECT lower(h.key) AS name, h.value FROM jsonb_each(coalesce(headers, '{}'::jsonb)) AS h LOOP
    IF jsonb_typeof(v_header.value) <> 'string' THEN
      RAISE EXCEPTION 'hookline.http_post: header % must be a string, got %', quote_literal(v_header.name), v_header.value
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_header.name = 'content-type' THEN
      -- pg_net refuses any other content type too; the body is always JSON.
      IF lower(v_header.value #>> '{}') NOT LIKE 'application/json%' THEN
        RAISE EXCEPTION 'hookline.http_post: the Content-Type header must be "application/json", got %', v_header.value
          USING ERRCODE = 'invalid_parameter_value';
      END IF;
      CONTINUE;
    END IF;
    v_headers := v_headers || jsonb_build_object(v_header.name, v_header.value);
  END LOOP;

  -- A fragment is never sent over HTTP; dropping it lets params go where a server reads them.
  v_url := split_part(url, '#', 1);
  SELECT string_agg(hookline.url_encode(p.key) || '=' || hookline.url_encode(p.value), '&')
    INTO v_query
    FROM jsonb_each_text(coalesce(params, '{}'::jsonb)) AS p;
  IF v_query IS NOT NULL THEN
    v_url := v_url || CASE WHEN strpos(v_url, '?') > 0 THEN '&' ELSE '?' END || v_query;
  END IF;

  v_key := encode(sha256(convert_to(jsonb_build_array(v_url, v_headers, timeout_milliseconds)::text, 'UTF8')), 'hex');

  -- The hot path: one index probe. Everything below it runs once per new (url, headers, timeout).
  SELECT e.id, e.enabled INTO v_endpoint_id, v_enabled
    FROM hookline.endpoints AS e
   WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
  IF NOT FOUND THEN
    INSERT INTO hookline.apps (id, name) VALUES (v_app_id, 'pg_net') ON CONFLICT (id) DO NOTHING;
    INSERT INTO hookline.event_types (app_id, name, description)
    VALUES (v_app_id, 'http_post', 'Requests recorded by hookline.http_post, the pg_net drop-in.')
    ON CONFLICT (app_id, name) DO NOTHING;
    -- ON CONFLICT waits for a concurrent first call with the same key to commit or roll back, so
    -- racing transactions end with one endpoint.
    INSERT INTO hookline.endpoints AS e (app_id, url, description, event_types, headers, implicit, implicit_key, timeout_ms)
    VALUES (v_app_id, v_url, 'Created by hookline.http_post', ARRAY['http_post'], v_headers, true, v_key,
            timeout_milliseconds)
    ON CONFLICT (app_id, implicit_key) WHERE implicit_key IS NOT NULL DO NOTHING
    RETURNING e.id, e.enabled INTO v_endpoint_id, v_enabled;
    IF v_endpoint_id IS NULL THEN
      SELECT e.id, e.enabled INTO v_endpoint_id, v_enabled
        FROM hookline.endpoints AS e
       WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
    ELSE
      -- 32 bytes from two v4 UUIDs (244 random bits); Standard Webhooks asks for 24 to 64 bytes.
      INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret)
      VALUES (v_app_id, v_endpoint_id,
              'whsec_' || encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'),
                                 'base64'));
    END IF;
  END IF;

  v_request_id := nextval('hookline.http_request_id_seq');
  -- Aimed at this one endpoint: the worker's fan-out sends it there and nowhere else (the app's other
  -- implicit endpoints also take 'http_post'). Like hookline.send, a disabled endpoint records the
  -- message but gets no delivery.
  INSERT INTO hookline.messages AS m (app_id, event_type, payload, request_id, target_endpoint_id)
  VALUES (v_app_id, 'http_post', body, v_request_id, v_endpoint_id)
  RETURNING m.id INTO v_message_id;
  INSERT INTO hookline.fanout_queue (message_id) VALUES (v_message_id);
  RETURN v_request_id;
END $$;

-- 8. New deliveries wake workers only when some of them are waiting to be claimed. The worker's own
-- fan-out inserts deliveries already leased to itself; a NOTIFY for those would wake every idle worker
-- for nothing (and, committing, serialize on the notify queue lock). Pending ones (an endpoint's
-- overflow, an open circuit's wait, a test event) still wake them.
CREATE FUNCTION hookline.notify_claimable_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE state = 'pending')
     AND NOT EXISTS (SELECT 1 FROM hookline.polling_workers WHERE until > now()) THEN
    PERFORM pg_notify('hookline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER deliveries_notify ON hookline.deliveries;
CREATE TRIGGER deliveries_notify AFTER INSERT ON hookline.deliveries
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION hookline.notify_claimable_deliveries();
