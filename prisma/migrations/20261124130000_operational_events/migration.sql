-- Operational events: Hookline tells operators when things break, through its own delivery engine.
--
-- Sources, none of them on the write path (no trigger or extra index on messages, deliveries,
-- attempts or fanout_queue):
--   - endpoint transitions (disabled/enabled, circuit opened/closed, failing/recovered): a row trigger
--     on hookline.endpoints whose WHEN clause is true only on those transitions. The worker writes an
--     endpoint's row at most once a second while it is healthy (record-results.sql), and the WHEN
--     clause is a few comparisons with a constant (the threshold is an inlined IMMUTABLE SQL function),
--     so such a write pays those comparisons and no PL/pgSQL call.
--   - dead deliveries and alert rules: a periodic pass of one worker at a time
--     (worker/operations/run-operations-pass.ts).
--   - anything else that wants to tell operators (bulk jobs): SELECT hookline.emit_operational_event(...).
--
-- Delivery: an operational event becomes ordinary hookline messages of an internal app, one per
-- subscribed operational endpoint (target_endpoint_id, as hookline.http_post's), which the normal
-- fan-out, claim, sign and retry path sends. Operational endpoints are endpoints of that app, so they
-- never appear among a customer app's endpoints (the customer portal lists one app's endpoints).

-- 1. The internal app that owns operational endpoints and their messages. A fixed id, as app_pg_net.
CREATE FUNCTION hookline.operations_app_id() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'app_hookline_ops'::text $$;

-- endpoint.failing fires when an endpoint's consecutive failures reach this many (the circuit opens
-- later, at HOOKLINE_CIRCUIT_FAILURE_THRESHOLD, 10 by default); endpoint.recovered when they return to 0.
CREATE FUNCTION hookline.operational_failing_threshold() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 3 $$;

INSERT INTO hookline.apps (id, name) VALUES (hookline.operations_app_id(), 'Hookline operations')
ON CONFLICT (id) DO NOTHING;

INSERT INTO hookline.event_types (app_id, name, description)
SELECT hookline.operations_app_id(), t.name, t.description
  FROM (VALUES
    ('endpoint.disabled', 'An endpoint was disabled: 410 Gone, a failure streak older than HOOKLINE_AUTO_DISABLE_AFTER, or an operator.'),
    ('endpoint.enabled', 'A disabled endpoint was enabled again.'),
    ('endpoint.circuit_opened', 'An endpoint''s circuit breaker opened: deliveries wait instead of spending attempts.'),
    ('endpoint.circuit_closed', 'An endpoint''s circuit breaker closed again after a successful probe.'),
    ('endpoint.failing', 'An endpoint failed several attempts in a row.'),
    ('endpoint.recovered', 'A failing endpoint succeeded again.'),
    ('delivery.dead', 'Deliveries of one endpoint went dead (retries exhausted or 410 Gone), grouped by error class.'),
    ('alert.fired', 'An alert rule''s condition became true.'),
    ('alert.resolved', 'A firing alert rule''s condition cleared.'),
    ('job.finished', 'A background job (bulk replay, backfill) finished.')
  ) AS t (name, description)
ON CONFLICT (app_id, name) DO NOTHING;

-- 2. What makes an endpoint of the operations app an operational subscription: whose events it gets
-- (scope_app_id NULL: every app's, deployment-wide) and how its body is shaped (payload_template
-- NULL: the Standard Webhooks envelope; else JSON text with {{path}} placeholders, sent as is, for
-- Slack's or PagerDuty's incoming webhooks). An operations-app endpoint without a row here is
-- deployment-wide with the envelope. No foreign keys: deletes of endpoints and apps remove these rows
-- explicitly, and dangling ones match nothing.
CREATE TABLE hookline.operational_endpoints (
  endpoint_id       text PRIMARY KEY,
  scope_app_id      text,
  payload_template  text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operational_endpoints_scope_app_id_idx ON hookline.operational_endpoints (scope_app_id);

-- 3. Issues: one row per (subject, error class), where the subject is an endpoint or an alert rule.
-- The row cycles open -> acknowledged -> resolved and back to open when it happens again, so "one
-- open issue per endpoint and error class" is the unique key, not a partial index.
CREATE TABLE hookline.issues (
  id                   text PRIMARY KEY DEFAULT hookline.new_id('iss'),
  app_id               text NOT NULL,
  subject_id           text NOT NULL,
  endpoint_id          text,
  alert_rule_id        text,
  error_class          text NOT NULL,
  title                text NOT NULL,
  status               text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'resolved')),
  event_count          integer NOT NULL DEFAULT 1,
  affected_deliveries  integer NOT NULL DEFAULT 0,
  reopened_count       integer NOT NULL DEFAULT 0,
  first_seen_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at         timestamptz NOT NULL DEFAULT now(),
  acknowledged_at      timestamptz,
  resolved_at          timestamptz,
  CONSTRAINT issues_subject_id_error_class_key UNIQUE (subject_id, error_class)
);
CREATE INDEX issues_status_last_seen_at_idx ON hookline.issues (status, last_seen_at DESC);
CREATE INDEX issues_app_id_last_seen_at_idx ON hookline.issues (app_id, last_seen_at DESC);

-- The deliveries an issue is about (dead ones, found by the periodic pass). The primary key also
-- keeps the pass from counting a delivery twice when its look-back windows overlap.
CREATE TABLE hookline.issue_deliveries (
  issue_id     text NOT NULL,
  delivery_id  text NOT NULL,
  app_id       text NOT NULL,
  detected_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT issue_deliveries_pkey PRIMARY KEY (issue_id, delivery_id)
);
-- "dead deliveries above N per hour" counts these per app.
CREATE INDEX issue_deliveries_app_id_detected_at_idx ON hookline.issue_deliveries (app_id, detected_at);
-- Retention: rows older than HOOKLINE_RETENTION go with the deliveries they name.
CREATE INDEX issue_deliveries_detected_at_idx ON hookline.issue_deliveries (detected_at);

-- 4. The event log: what was emitted, for the dashboard and for tests; messages carry the bodies.
CREATE TABLE hookline.operational_events (
  id           text PRIMARY KEY DEFAULT hookline.new_id('opev'),
  app_id       text NOT NULL,
  type         text NOT NULL,
  endpoint_id  text,
  issue_id     text,
  data         jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operational_events_created_at_idx ON hookline.operational_events (created_at DESC);
CREATE INDEX operational_events_issue_id_created_at_idx ON hookline.operational_events (issue_id, created_at DESC);

-- 5. Alert rules per app, evaluated by the periodic pass from the rollups. firing is the hysteresis:
-- alert.fired once when the condition becomes true, alert.resolved once when it clears.
CREATE TABLE hookline.alert_rules (
  id                 text PRIMARY KEY DEFAULT hookline.new_id('alrt'),
  app_id             text NOT NULL,
  kind               text NOT NULL CHECK (kind IN ('success_rate_below', 'oldest_waiting_above', 'dead_per_hour_above')),
  -- success_rate_below: percent (0-100); oldest_waiting_above: seconds; dead_per_hour_above: deliveries.
  threshold          double precision NOT NULL CHECK (threshold >= 0),
  -- success_rate_below's window; the others ignore it.
  window_minutes     integer NOT NULL DEFAULT 15 CHECK (window_minutes BETWEEN 1 AND 1440),
  description        text NOT NULL DEFAULT '',
  enabled            boolean NOT NULL DEFAULT true,
  firing             boolean NOT NULL DEFAULT false,
  last_value         double precision,
  last_evaluated_at  timestamptz,
  fired_at           timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_rules_app_id_idx ON hookline.alert_rules (app_id);

-- 6. The periodic pass's watermark: dead deliveries are looked for from here (minus a look-back).
CREATE TABLE hookline.operations_state (
  id                  boolean PRIMARY KEY DEFAULT true CHECK (id),
  dead_scanned_until  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO hookline.operations_state (id) VALUES (true);

-- 7. Payload templates: {{a.b.c}} is replaced by that path of the context (type, timestamp, data),
-- JSON-escaped so it can stand inside a JSON string; nothing else is interpreted (no code, no
-- conditionals). Raises when the result is not JSON; the REST API renders a sample before accepting
-- a template, and emission falls back to the envelope's data if a real event still breaks it.
CREATE FUNCTION hookline.render_payload_template(template text, context jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_out text := '';
  v_rest text := template;
  v_pos integer;
  v_match text[];
  v_value text;
BEGIN
  LOOP
    v_pos := strpos(v_rest, '{{');
    EXIT WHEN v_pos = 0;
    v_out := v_out || left(v_rest, v_pos - 1);
    v_rest := substr(v_rest, v_pos);
    v_match := regexp_match(v_rest, '^(\{\{\s*([A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*)\s*\}\})');
    IF v_match IS NULL THEN
      v_out := v_out || '{{';
      v_rest := substr(v_rest, 3);
      CONTINUE;
    END IF;
    v_value := to_json(coalesce(context #>> string_to_array(v_match[2], '.'), ''))::text;
    v_out := v_out || substr(v_value, 2, length(v_value) - 2);
    v_rest := substr(v_rest, length(v_match[1]) + 1);
  END LOOP;
  RETURN (v_out || v_rest)::jsonb;
END $$;

-- 8. Records one operational event and sends it to every subscribed operational endpoint.
--   app_id, event_type, data: the app it is about, one of the operations app's event types, details.
--   endpoint_id: the endpoint it is about, if any (its URL is added to data).
--   issue_class: when set, the event opens or touches the issue (issue_subject or endpoint_id,
--     issue_class); resolves_issue: it resolves that issue instead (alert.resolved).
--   delivery_ids: deliveries the issue is about (delivery.dead), counted once each.
-- Returns the event's id. Bulk jobs call it as
--   SELECT hookline.emit_operational_event(app_id, 'job.finished', jsonb_build_object('job_id', ...));
CREATE FUNCTION hookline.emit_operational_event(
  app_id text,
  event_type text,
  data jsonb DEFAULT '{}'::jsonb,
  endpoint_id text DEFAULT NULL,
  issue_class text DEFAULT NULL,
  issue_subject text DEFAULT NULL,
  issue_title text DEFAULT NULL,
  resolves_issue boolean DEFAULT false,
  delivery_ids text[] DEFAULT '{}'::text[]
) RETURNS text
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  v_ops constant text := hookline.operations_app_id();
  v_event_id text := hookline.new_id('opev');
  v_issue_id text;
  v_subject text := coalesce(issue_subject, endpoint_id);
  v_added integer;
  v_data jsonb;
  v_url text;
  v_app_name text;
  v_now constant timestamptz := now();
BEGIN
  PERFORM 1 FROM hookline.event_types AS t WHERE t.app_id = v_ops AND t.name = event_type;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'hookline.emit_operational_event: unknown operational event type %', quote_literal(event_type)
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'Use one of the event types of app ' || v_ops || ' (README, "Operational events").';
  END IF;
  IF data IS NULL OR jsonb_typeof(data) <> 'object' THEN
    RAISE EXCEPTION 'hookline.emit_operational_event: data must be a JSON object, got %', coalesce(data::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT a.name INTO v_app_name FROM hookline.apps AS a WHERE a.id = app_id;
  IF endpoint_id IS NOT NULL THEN
    SELECT e.url INTO v_url FROM hookline.endpoints AS e WHERE e.id = endpoint_id;
  END IF;

  IF issue_class IS NOT NULL AND v_subject IS NOT NULL THEN
    IF resolves_issue THEN
      UPDATE hookline.issues AS i
         SET status = 'resolved', resolved_at = v_now, last_seen_at = v_now, event_count = i.event_count + 1
       WHERE i.subject_id = v_subject AND i.error_class = issue_class
      RETURNING i.id INTO v_issue_id;
    ELSE
      INSERT INTO hookline.issues AS i (app_id, subject_id, endpoint_id, alert_rule_id, error_class, title)
      VALUES (app_id, v_subject, endpoint_id, CASE WHEN issue_subject LIKE 'alrt\_%' THEN issue_subject END,
              issue_class, coalesce(issue_title, event_type || ' (' || issue_class || ')'))
      ON CONFLICT (subject_id, error_class) DO UPDATE
         SET last_seen_at = v_now,
             event_count = i.event_count + 1,
             title = EXCLUDED.title,
             status = CASE WHEN i.status = 'resolved' THEN 'open' ELSE i.status END,
             reopened_count = i.reopened_count + (i.status = 'resolved')::int,
             acknowledged_at = CASE WHEN i.status = 'resolved' THEN NULL ELSE i.acknowledged_at END,
             resolved_at = CASE WHEN i.status = 'resolved' THEN NULL ELSE i.resolved_at END
      RETURNING i.id INTO v_issue_id;
      IF cardinality(delivery_ids) > 0 THEN
        INSERT INTO hookline.issue_deliveries (issue_id, delivery_id, app_id)
        SELECT v_issue_id, d, app_id FROM unnest(delivery_ids) AS d
        ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS v_added = ROW_COUNT;
        UPDATE hookline.issues AS i SET affected_deliveries = i.affected_deliveries + v_added WHERE i.id = v_issue_id;
      END IF;
    END IF;
  END IF;

  v_data := jsonb_strip_nulls(jsonb_build_object(
              'event_id', v_event_id, 'app_id', app_id, 'app_name', v_app_name,
              'endpoint_id', endpoint_id, 'endpoint_url', v_url, 'issue_id', v_issue_id,
              'occurred_at', v_now)) || data;
  INSERT INTO hookline.operational_events (id, app_id, type, endpoint_id, issue_id, data)
  VALUES (v_event_id, app_id, event_type, endpoint_id, v_issue_id, v_data);

  -- Events about the operations app's own endpoints are recorded (and make issues) but not sent:
  -- a failing Slack hook must not page about itself through itself, in a loop.
  IF app_id = v_ops THEN
    RETURN v_event_id;
  END IF;

  WITH targets AS (
    SELECT e.id AS endpoint_id, o.payload_template
      FROM hookline.endpoints AS e
      LEFT JOIN hookline.operational_endpoints AS o ON o.endpoint_id = e.id
     WHERE e.app_id = v_ops
       AND e.enabled
       AND (cardinality(e.event_types) = 0 OR event_type = ANY (e.event_types))
       AND (o.scope_app_id IS NULL OR o.scope_app_id = app_id)
  ), messages AS (
    INSERT INTO hookline.messages (app_id, event_type, payload, target_endpoint_id, created_at)
    SELECT v_ops, event_type,
           CASE WHEN t.payload_template IS NULL THEN v_data
                ELSE hookline.render_operational_payload(t.payload_template, event_type, v_now, v_data) END,
           t.endpoint_id, v_now
      FROM targets AS t
    RETURNING id
  )
  INSERT INTO hookline.fanout_queue (message_id) SELECT id FROM messages;
  RETURN v_event_id;
END $$;

-- A template that a real event still breaks (it was checked against a sample when saved) sends the
-- event's data instead of failing the statement that emitted it: an endpoint's transition must never
-- roll back the worker's flush that caused it.
CREATE FUNCTION hookline.render_operational_payload(template text, event_type text, at timestamptz, data jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN hookline.render_payload_template(template,
           jsonb_build_object('type', event_type, 'timestamp', at, 'data', data));
EXCEPTION WHEN others THEN
  RAISE WARNING 'operational payload template failed (%); sending the event data instead', SQLERRM;
  RETURN data;
END $$;

-- 9. Endpoint transitions. The WHEN clause below is the only cost for every other update of an
-- endpoint row; the function runs on a transition only, at most a few times per endpoint per outage.
-- Errors are caught and logged: the worker's flush that caused the transition must commit whatever
-- this does.
CREATE FUNCTION hookline.endpoint_operational_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_threshold constant integer := hookline.operational_failing_threshold();
  v_class text := CASE WHEN NEW.consecutive_failures > 0 THEN NEW.last_error_class END;
  v_health jsonb := jsonb_build_object(
    'consecutive_failures', NEW.consecutive_failures, 'last_error_class', NEW.last_error_class,
    'circuit_state', NEW.circuit_state, 'failing_since', NEW.failing_since, 'last_failure_at', NEW.last_failure_at);
BEGIN
  BEGIN
    IF OLD.enabled AND NOT NEW.enabled THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.disabled',
        v_health || jsonb_build_object('reason', NEW.disabled_reason), NEW.id, v_class,
        issue_title => 'Endpoint disabled: ' || coalesce(NEW.disabled_reason, 'by an operator'));
    ELSIF NOT OLD.enabled AND NEW.enabled THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.enabled', v_health, NEW.id);
    END IF;
    IF OLD.circuit_state = 'closed' AND NEW.circuit_state <> 'closed' THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.circuit_opened',
        v_health || jsonb_build_object('circuit_open_until', NEW.circuit_open_until), NEW.id, v_class,
        issue_title => 'Circuit opened after ' || NEW.consecutive_failures || ' failures in a row (' || coalesce(v_class, 'unknown') || ')');
    ELSIF OLD.circuit_state <> 'closed' AND NEW.circuit_state = 'closed' THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.circuit_closed', v_health, NEW.id);
    END IF;
    IF OLD.consecutive_failures < v_threshold AND NEW.consecutive_failures >= v_threshold THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.failing', v_health, NEW.id, v_class,
        issue_title => 'Failing: ' || NEW.consecutive_failures || ' attempts in a row (' || coalesce(v_class, 'unknown') || ')');
    ELSIF OLD.consecutive_failures >= v_threshold AND NEW.consecutive_failures = 0 THEN
      PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.recovered',
        v_health || jsonb_build_object('failed_attempts', OLD.consecutive_failures, 'failing_since', OLD.failing_since),
        NEW.id);
    END IF;
  EXCEPTION WHEN others THEN
    RAISE WARNING 'operational event for endpoint % not recorded: %', NEW.id, SQLERRM;
  END;
  RETURN NULL;
END $$;

CREATE TRIGGER endpoints_operational_events AFTER UPDATE ON hookline.endpoints
  FOR EACH ROW
  WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled
        OR (OLD.circuit_state = 'closed') IS DISTINCT FROM (NEW.circuit_state = 'closed')
        -- crossing the failing threshold, either way (recovered is the way down to 0)
        OR (OLD.consecutive_failures < hookline.operational_failing_threshold())
           IS DISTINCT FROM (NEW.consecutive_failures < hookline.operational_failing_threshold()))
  EXECUTE FUNCTION hookline.endpoint_operational_events();
