-- Hookline's initial schema. Everything lives in the `hookline` schema so Hookline can share a
-- database with the application that records events (that is the point: `hookline.send` runs inside
-- the caller's own transaction). Every table carries app_id and no hot-path query crosses apps, so a
-- deployment can later shard by app_id (Citus) without a redesign.

CREATE SCHEMA IF NOT EXISTS hookline;

-- Ids say what they are (`msg_…`, `ep_…`) and sort by creation time: 12 hex digits of milliseconds
-- since the epoch, then 20 hex digits (72 random bits, skipping the UUID version nibble). Sorting by
-- time is what makes cursor pagination stable while rows are inserted.
CREATE FUNCTION hookline.new_id(prefix text) RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT prefix || '_'
      || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
      || substr(u, 1, 12) || substr(u, 14, 8)
  FROM (SELECT replace(gen_random_uuid()::text, '-', '') AS u) AS random_hex
$$;

CREATE TABLE hookline.apps (
  id          text PRIMARY KEY DEFAULT hookline.new_id('app'),
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hookline.event_types (
  id            text PRIMARY KEY DEFAULT hookline.new_id('evtype'),
  app_id        text NOT NULL REFERENCES hookline.apps (id) ON DELETE CASCADE,
  name          text NOT NULL,
  description   text NOT NULL DEFAULT '',
  schema        jsonb,
  archived      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_types_app_id_name_key UNIQUE (app_id, name)
);

CREATE TABLE hookline.endpoints (
  id                  text PRIMARY KEY DEFAULT hookline.new_id('ep'),
  app_id              text NOT NULL REFERENCES hookline.apps (id) ON DELETE CASCADE,
  url                 text NOT NULL,
  description         text NOT NULL DEFAULT '',
  -- Empty means every event type of the app.
  event_types         text[] NOT NULL DEFAULT '{}',
  enabled             boolean NOT NULL DEFAULT true,
  disabled_reason     text,
  disabled_at         timestamptz,
  -- Concurrent requests one worker keeps open to this endpoint (= its keep-alive connections).
  max_concurrency     integer NOT NULL DEFAULT 10 CHECK (max_concurrency BETWEEN 1 AND 1000),
  rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
  -- Extra request headers, {"name": "value"}.
  headers             jsonb NOT NULL DEFAULT '{}',
  -- Set by hookline.http_post: the endpoint was created implicitly from a URL.
  implicit            boolean NOT NULL DEFAULT false,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX endpoints_app_id_idx ON hookline.endpoints (app_id, created_at);

-- Signing secrets. Several may be active at once during a rotation: the old one keeps signing until
-- expires_at so receivers can switch over without dropping a request.
CREATE TABLE hookline.endpoint_secrets (
  id           text PRIMARY KEY DEFAULT hookline.new_id('whsecid'),
  app_id       text NOT NULL,
  endpoint_id  text NOT NULL REFERENCES hookline.endpoints (id) ON DELETE CASCADE,
  secret       text NOT NULL CHECK (secret LIKE 'whsec\_%'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz
);
CREATE INDEX endpoint_secrets_endpoint_id_idx ON hookline.endpoint_secrets (endpoint_id);

CREATE TABLE hookline.messages (
  id               text PRIMARY KEY DEFAULT hookline.new_id('msg'),
  app_id           text NOT NULL REFERENCES hookline.apps (id) ON DELETE CASCADE,
  event_type       text NOT NULL,
  payload          jsonb NOT NULL,
  idempotency_key  text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX messages_app_id_idempotency_key_key
  ON hookline.messages (app_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX messages_app_id_created_at_idx ON hookline.messages (app_id, created_at DESC);
CREATE INDEX messages_app_id_event_type_idx ON hookline.messages (app_id, event_type, created_at DESC);

-- The outbox: one row per (message, endpoint).
--   pending -> delivering -> succeeded
--   delivering -> pending (failed attempt, later next_attempt_at) -> ... -> dead
--   pending/delivering -> cancelled (operator)
-- A claimed row gets next_attempt_at = lease_expires_at, so "claimable" is a single condition
-- (state IN pending, delivering AND next_attempt_at <= now()) served by one partial index, and a row
-- whose worker died becomes claimable again when its lease runs out.
CREATE TABLE hookline.deliveries (
  id                text PRIMARY KEY DEFAULT hookline.new_id('dlv'),
  app_id            text NOT NULL,
  message_id        text NOT NULL REFERENCES hookline.messages (id) ON DELETE CASCADE,
  endpoint_id       text NOT NULL REFERENCES hookline.endpoints (id) ON DELETE CASCADE,
  event_type        text NOT NULL,
  state             text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'delivering', 'succeeded', 'dead', 'cancelled')),
  attempt_count     integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL DEFAULT now(),
  lease_owner       text,
  lease_expires_at  timestamptz,
  last_attempt_at   timestamptz,
  last_status_code  integer,
  last_error_class  text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
-- The claim index: only unfinished rows, so its size (and the claim's cost) does not grow with the
-- millions of finished deliveries kept for the dashboard.
CREATE INDEX deliveries_claim_idx ON hookline.deliveries (next_attempt_at)
  WHERE state IN ('pending', 'delivering');
CREATE INDEX deliveries_app_id_created_at_idx ON hookline.deliveries (app_id, created_at DESC);
CREATE INDEX deliveries_endpoint_id_created_at_idx ON hookline.deliveries (endpoint_id, created_at DESC);
CREATE INDEX deliveries_message_id_idx ON hookline.deliveries (message_id);
CREATE INDEX deliveries_app_id_state_idx ON hookline.deliveries (app_id, state, created_at DESC);

CREATE TABLE hookline.attempts (
  id                  text PRIMARY KEY DEFAULT hookline.new_id('atmpt'),
  app_id              text NOT NULL,
  delivery_id         text NOT NULL REFERENCES hookline.deliveries (id) ON DELETE CASCADE,
  message_id          text NOT NULL,
  endpoint_id         text NOT NULL,
  attempt_number      integer NOT NULL,
  worker_id           text NOT NULL,
  started_at          timestamptz NOT NULL,
  duration_ms         double precision NOT NULL,
  status_code         integer,
  error_class         text,
  error_message       text,
  request_headers     jsonb NOT NULL DEFAULT '{}',
  response_headers    jsonb,
  -- The first few KB of the response, always treated as text; the rest is drained and dropped.
  response_body       text,
  response_truncated  boolean NOT NULL DEFAULT false
);
CREATE INDEX attempts_delivery_id_idx ON hookline.attempts (delivery_id, started_at);
CREATE INDEX attempts_app_id_started_at_idx ON hookline.attempts (app_id, started_at DESC);

-- Per-minute rollups written by the worker in the same statement that records attempts, so the
-- dashboard reads minutes, not millions of attempts. error_class '' and status_code 0 mean "none"
-- (they are part of the key, which cannot hold NULL). latency_buckets counts attempts per
-- hookline.latency_bucket_bounds_ms() bucket, the last bucket being "slower than the last bound".
CREATE TABLE hookline.stats_minutely (
  minute           timestamptz NOT NULL,
  app_id           text NOT NULL,
  endpoint_id      text NOT NULL,
  outcome          text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  error_class      text NOT NULL DEFAULT '',
  status_code      integer NOT NULL DEFAULT 0,
  attempts         bigint NOT NULL DEFAULT 0,
  duration_ms_sum  double precision NOT NULL DEFAULT 0,
  latency_buckets  bigint[] NOT NULL,
  CONSTRAINT stats_minutely_pkey PRIMARY KEY (minute, app_id, endpoint_id, outcome, error_class, status_code)
);
CREATE INDEX stats_minutely_app_id_minute_idx ON hookline.stats_minutely (app_id, minute);

CREATE FUNCTION hookline.latency_bucket_bounds_ms() RETURNS double precision[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000]::double precision[]
$$;

CREATE TABLE hookline.api_keys (
  id            text PRIMARY KEY DEFAULT hookline.new_id('key'),
  -- NULL: a deployment-wide key; otherwise the key sees and changes only this app.
  app_id        text REFERENCES hookline.apps (id) ON DELETE CASCADE,
  name          text NOT NULL,
  -- The first characters of the key, to recognise it in a list; the key itself is never stored.
  prefix        text NOT NULL,
  key_hash      text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz,
  CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash)
);

CREATE TABLE hookline.admin_users (
  id             text PRIMARY KEY DEFAULT hookline.new_id('usr'),
  email          text NOT NULL,
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT admin_users_email_key UNIQUE (email)
);

CREATE TABLE hookline.admin_sessions (
  id          text PRIMARY KEY DEFAULT hookline.new_id('ses'),
  user_id     text NOT NULL REFERENCES hookline.admin_users (id) ON DELETE CASCADE,
  token_hash  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  CONSTRAINT admin_sessions_token_hash_key UNIQUE (token_hash)
);

-- Wakes workers. Statement-level, so a batch insert of 10,000 deliveries sends one NOTIFY, and
-- Postgres folds identical notifications of one transaction into one. The payload is empty: a
-- NOTIFY is only a latency hint, polling remains the guarantee.
CREATE FUNCTION hookline.notify_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hookline_deliveries', '');
  RETURN NULL;
END $$;

CREATE TRIGGER deliveries_notify AFTER INSERT ON hookline.deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION hookline.notify_deliveries();

-- The SQL way in. Runs inside the caller's transaction: the message and its deliveries exist if and
-- only if that transaction commits. Returns the message id; with an idempotency key already used by
-- this app, returns the existing message id and records nothing new.
CREATE FUNCTION hookline.send(
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
  PERFORM 1 FROM hookline.apps a WHERE a.id = send.app_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown app %', quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the app first (REST POST /api/v1/apps or the dashboard) and pass its id.';
  END IF;
  SELECT t.archived INTO v_archived
    FROM hookline.event_types t WHERE t.app_id = send.app_id AND t.name = send.event_type;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.send: unknown event type % for app %', quote_literal(event_type), quote_literal(app_id)
      USING ERRCODE = 'foreign_key_violation',
            HINT = 'Create the event type first (REST POST /api/v1/apps/{app}/event-types or the dashboard).';
  ELSIF v_archived THEN
    RAISE EXCEPTION 'hookline.send: event type % of app % is archived', quote_literal(event_type), quote_literal(app_id)
      USING ERRCODE = 'check_violation', HINT = 'Unarchive the event type to send it again.';
  END IF;

  IF idempotency_key IS NOT NULL THEN
    -- ON CONFLICT waits for a concurrent insert of the same key to commit or roll back, so two
    -- racing callers end with one message.
    INSERT INTO hookline.messages AS m (app_id, event_type, payload, idempotency_key)
    VALUES (send.app_id, send.event_type, send.payload, send.idempotency_key)
    ON CONFLICT (app_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
    RETURNING m.id INTO v_message_id;
    IF v_message_id IS NULL THEN
      SELECT m.id INTO v_message_id FROM hookline.messages m
       WHERE m.app_id = send.app_id AND m.idempotency_key = send.idempotency_key;
      RETURN v_message_id;
    END IF;
  ELSE
    INSERT INTO hookline.messages AS m (app_id, event_type, payload)
    VALUES (send.app_id, send.event_type, send.payload)
    RETURNING m.id INTO v_message_id;
  END IF;

  INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type)
  SELECT send.app_id, v_message_id, e.id, send.event_type
    FROM hookline.endpoints e
   WHERE e.app_id = send.app_id
     AND e.enabled
     AND (cardinality(e.event_types) = 0 OR send.event_type = ANY (e.event_types));

  RETURN v_message_id;
END $$;
