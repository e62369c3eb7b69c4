-- Alerts that do not flap (issue 23): hysteresis on an endpoint's failing state, and notifications
-- grouped per issue. Before this, endpoint.failing fired at 3 failures in a row and endpoint.recovered
-- at the next success, and every event was a message: an endpoint failing a fifth of its requests
-- at ~7 attempts/s made ~500 Slack posts an hour.
--
-- Hysteresis. An endpoint is *failing* (hookline.endpoints.alert_failing_since set) once its current
-- streak reaches alert_failing_after_failures failures in a row, or has lasted alert_failing_after
-- with no success; it has *recovered* once it succeeded and has not failed for alert_recovered_after.
-- The count is checked by the trigger on hookline.endpoints, the moment the worker writes it (a real
-- outage is reported within seconds); the durations by the worker's operations pass (once a minute),
-- since no row write marks the time passing.
--
-- Grouping. Every event is recorded; an event about an issue is sent only when it changes what the
-- operators were last told about that issue (open or resolved: hookline.issues.notified_status), and
-- at most once per alert_min_interval per issue. A change inside the interval is sent by the pass when
-- the interval is over, if it still holds (a flap back and forth inside it is never sent). While an
-- issue stays open (not acknowledged) the pass sends issue.reminder every alert_reminder_interval. A
-- muted issue sends nothing until muted_until; an operator's resolve or reopen is sent at once.
-- So one issue sends at most 60 / alert_min_interval-in-minutes automatic notifications an hour
-- (6 with the default 10 minutes), however its endpoint flaps.

-- 1. Settings, written by every worker at start from HOOKLINE_ALERT_* and HOOKLINE_PUBLIC_URL
-- (worker/operations/configure-alerts.ts); the defaults here are the variables' defaults.
ALTER TABLE hookline.operations_state
  ADD COLUMN alert_failing_after_failures integer NOT NULL DEFAULT 5 CHECK (alert_failing_after_failures >= 1),
  -- Durations in milliseconds, as the variables are parsed (lib/runtime/env.ts); 0 reminders: none.
  ADD COLUMN alert_failing_after_ms bigint NOT NULL DEFAULT 60000 CHECK (alert_failing_after_ms >= 0),
  ADD COLUMN alert_recovered_after_ms bigint NOT NULL DEFAULT 300000 CHECK (alert_recovered_after_ms >= 0),
  ADD COLUMN alert_min_interval_ms bigint NOT NULL DEFAULT 600000 CHECK (alert_min_interval_ms >= 0),
  ADD COLUMN alert_reminder_interval_ms bigint NOT NULL DEFAULT 3600000 CHECK (alert_reminder_interval_ms >= 0),
  ADD COLUMN alert_auto_resolve boolean NOT NULL DEFAULT true,
  -- The dashboard's origin for the links in operational payloads; NULL until a worker starts.
  ADD COLUMN public_url text;

-- 2. The endpoint's failing state for alerting. Not indexed: the hot path's HOT updates stay HOT.
ALTER TABLE hookline.endpoints ADD COLUMN alert_failing_since timestamptz;

-- 3. What the operators were last told about each issue, and when; and a mute.
ALTER TABLE hookline.issues
  ADD COLUMN notified_status text CHECK (notified_status IN ('open', 'resolved')),
  ADD COLUMN notified_at timestamptz,
  ADD COLUMN muted_until timestamptz;
-- The pass's catch-ups and reminders read only issues that are unresolved or whose resolve was not yet
-- told: a few rows, whatever the history holds.
CREATE INDEX issues_notify_idx ON hookline.issues (id) WHERE status <> 'resolved' OR notified_status = 'open';

-- 4. Whether an event was sent to the operational endpoints (false: recorded on its issue only).
ALTER TABLE hookline.operational_events ADD COLUMN notified boolean NOT NULL DEFAULT true;

INSERT INTO hookline.event_types (app_id, name, description)
SELECT hookline.operations_app_id(), t.name, t.description
  FROM (VALUES
    ('issue.reminder', 'An issue is still open: sent every HOOKLINE_ALERT_REMINDER_INTERVAL until it is acknowledged or resolved, and when a mute ends on an issue nobody was told of.'),
    ('issue.reopened', 'An issue opened again after its resolve was sent, or an operator reopened it.'),
    ('issue.resolved', 'An issue was resolved by an operator, or its resolve was held back by HOOKLINE_ALERT_MIN_INTERVAL.')
  ) AS t (name, description)
ON CONFLICT (app_id, name) DO NOTHING;

-- 5. The dashboard page an event is about: its issue, else its endpoint, else the app's jobs.
CREATE FUNCTION hookline.operational_link(app_id text, event_type text, issue_id text, endpoint_id text)
RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT rtrim(coalesce(s.public_url, 'http://127.0.0.1:3000'), '/') ||
         CASE WHEN issue_id IS NOT NULL THEN '/issues/' || issue_id
              WHEN endpoint_id IS NOT NULL THEN '/apps/' || app_id || '/endpoints/' || endpoint_id
              WHEN event_type = 'job.finished' THEN '/apps/' || app_id || '/jobs'
              ELSE '/issues' END
    FROM hookline.operations_state AS s
$$;

-- 6. One line a person reads (Slack's text, PagerDuty's summary), with only the values the event has.
CREATE FUNCTION hookline.operational_summary(event_type text, data jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_app text := coalesce(data->>'app_name', data->>'app_id', 'an app');
  v_ep text := coalesce(data->>'endpoint_url', data->>'endpoint_id', 'an endpoint');
  v_class text := coalesce(data->>'last_error_class', data->>'error_class');
  v_value text;
BEGIN
  IF data ? 'value' AND jsonb_typeof(data->'value') = 'number' THEN
    v_value := round((data->>'value')::numeric, 1)::text ||
               CASE data->>'kind' WHEN 'success_rate_below' THEN ' %' WHEN 'oldest_waiting_above' THEN ' s' ELSE '' END;
  END IF;
  RETURN CASE event_type
    WHEN 'endpoint.failing' THEN 'Endpoint failing for ' || v_app || ': ' || v_ep || ', ' ||
      coalesce(data->>'consecutive_failures', '?') || ' attempts in a row failed' || coalesce(' (' || v_class || ')', '')
    WHEN 'endpoint.recovered' THEN 'Endpoint recovered for ' || v_app || ': ' || v_ep
    WHEN 'endpoint.circuit_opened' THEN 'Circuit opened for ' || v_app || ': ' || v_ep || coalesce(' (' || v_class || ')', '')
    WHEN 'endpoint.circuit_closed' THEN 'Circuit closed for ' || v_app || ': ' || v_ep
    WHEN 'endpoint.disabled' THEN 'Endpoint disabled for ' || v_app || ': ' || v_ep || coalesce(': ' || (data->>'reason'), '')
    WHEN 'endpoint.enabled' THEN 'Endpoint enabled for ' || v_app || ': ' || v_ep
    WHEN 'delivery.dead' THEN coalesce(data->>'count', 'Some') || ' deliveries dead for ' || v_app || ': ' || v_ep ||
      coalesce(' (' || v_class || ')', '')
    WHEN 'alert.fired' THEN 'Alert for ' || v_app || ': ' || coalesce(data->>'condition', 'a rule') || coalesce(', now ' || v_value, '')
    WHEN 'alert.resolved' THEN 'Alert resolved for ' || v_app || ': ' || coalesce(data->>'condition', 'a rule') ||
      coalesce(', now ' || v_value, '')
    WHEN 'job.finished' THEN 'Job ' || coalesce(data->>'kind', '') || ' ' || coalesce(data->>'state', 'finished') || ' for ' ||
      v_app || coalesce(': ' || (data->>'processed') || ' of ' || (data->>'total'), '')
    WHEN 'issue.reminder' THEN 'Still open for ' || v_app || ': ' || coalesce(data->>'title', 'an issue') ||
      coalesce(', since ' || to_char((data->>'first_seen_at')::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'), '')
    WHEN 'issue.reopened' THEN 'Reopened for ' || v_app || ': ' || coalesce(data->>'title', 'an issue')
    WHEN 'issue.resolved' THEN 'Resolved for ' || v_app || ': ' || coalesce(data->>'title', 'an issue')
    ELSE event_type || ' for ' || v_app
  END;
END $$;

-- 7. Templates see, besides type, timestamp and data: action ("trigger" or "resolve", PagerDuty's
-- event_action), dedup_key (the issue's id, else the event's) and emoji (Slack: a siren only for what
-- is wrong).
DROP FUNCTION hookline.render_operational_payload(text, text, timestamptz, jsonb);
CREATE FUNCTION hookline.render_operational_payload(template text, event_type text, at timestamptz, data jsonb,
                                                    action text)
RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN hookline.render_payload_template(template,
           jsonb_build_object('type', event_type, 'timestamp', at, 'data', data, 'action', action,
                              'dedup_key', coalesce(data->>'issue_id', data->>'event_id'),
                              'emoji', CASE WHEN action = 'resolve' OR event_type IN ('endpoint.circuit_closed', 'endpoint.enabled')
                                              THEN ':white_check_mark:'
                                            WHEN event_type = 'issue.reminder' THEN ':bell:'
                                            WHEN event_type = 'job.finished' AND data->>'state' <> 'failed' THEN ':information_source:'
                                            ELSE ':rotating_light:' END));
EXCEPTION WHEN others THEN
  RAISE WARNING 'operational payload template failed (%); sending the event data instead', SQLERRM;
  RETURN data;
END $$;

-- 8. Records one operational event and, when the rules above say so, sends it.
--   issue_class (+ issue_subject or endpoint_id): the event opens or touches that issue;
--     resolves_issue: it resolves it instead (alert.resolved, endpoint.recovered).
--   issue_id: an event about a known issue (issue.*), which it neither opens nor resolves.
--   by_operator: an operator's action, sent whatever alert_min_interval says.
DROP FUNCTION hookline.emit_operational_event(text, text, jsonb, text, text, text, text, boolean, text[]);
CREATE FUNCTION hookline.emit_operational_event(
  app_id text,
  event_type text,
  data jsonb DEFAULT '{}'::jsonb,
  endpoint_id text DEFAULT NULL,
  issue_class text DEFAULT NULL,
  issue_subject text DEFAULT NULL,
  issue_title text DEFAULT NULL,
  resolves_issue boolean DEFAULT false,
  delivery_ids text[] DEFAULT '{}'::text[],
  issue_id text DEFAULT NULL,
  by_operator boolean DEFAULT false
) RETURNS text
LANGUAGE plpgsql AS $$
#variable_conflict use_variable
DECLARE
  v_ops constant text := hookline.operations_app_id();
  v_event_id text := hookline.new_id('opev');
  v_issue_id text := issue_id;
  v_subject text := coalesce(issue_subject, endpoint_id);
  v_added integer;
  v_data jsonb;
  v_url text;
  v_app_name text;
  v_now constant timestamptz := now();
  v_issue hookline.issues;
  v_told text;
  v_state text;
  v_send boolean := true;
  v_min_interval interval;
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

  IF v_issue_id IS NULL AND issue_class IS NOT NULL AND v_subject IS NOT NULL THEN
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

  -- Grouping: send what changes what the operators were last told, at most once per min interval.
  IF v_issue_id IS NOT NULL THEN
    SELECT * INTO v_issue FROM hookline.issues AS i WHERE i.id = v_issue_id FOR UPDATE;
    SELECT s.alert_min_interval_ms * interval '1 millisecond' INTO v_min_interval FROM hookline.operations_state AS s;
    v_told := coalesce(v_issue.notified_status, 'resolved');
    v_state := CASE WHEN v_issue.status = 'resolved' THEN 'resolved' ELSE 'open' END;
    v_send := (v_issue.muted_until IS NULL OR v_issue.muted_until <= v_now)
              AND (v_state <> v_told OR event_type = 'issue.reminder')
              AND (by_operator OR v_issue.notified_at IS NULL OR v_issue.notified_at <= v_now - v_min_interval);
    IF v_send THEN
      UPDATE hookline.issues AS i SET notified_status = v_state, notified_at = v_now WHERE i.id = v_issue_id;
    END IF;
  END IF;

  v_data := jsonb_strip_nulls(jsonb_build_object(
              'event_id', v_event_id, 'app_id', app_id, 'app_name', v_app_name,
              'endpoint_id', endpoint_id, 'endpoint_url', v_url, 'issue_id', v_issue_id,
              'occurred_at', v_now)) || data;
  v_data := v_data || jsonb_build_object(
              'summary', hookline.operational_summary(event_type, v_data),
              'dashboard_url', hookline.operational_link(app_id, event_type, v_issue_id, endpoint_id));
  INSERT INTO hookline.operational_events (id, app_id, type, endpoint_id, issue_id, data, notified)
  VALUES (v_event_id, app_id, event_type, endpoint_id, v_issue_id, v_data, v_send AND app_id <> v_ops);

  -- Events about the operations app's own endpoints are recorded (and make issues) but not sent:
  -- a failing Slack hook must not page about itself through itself, in a loop.
  IF app_id = v_ops OR NOT v_send THEN
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
                ELSE hookline.render_operational_payload(t.payload_template, event_type, v_now, v_data,
                       CASE WHEN event_type IN ('endpoint.recovered', 'alert.resolved', 'issue.resolved')
                            THEN 'resolve' ELSE 'trigger' END) END,
           t.endpoint_id, v_now
      FROM targets AS t
    RETURNING id
  )
  INSERT INTO hookline.fanout_queue (message_id) SELECT id FROM messages;
  RETURN v_event_id;
END $$;

-- 9. An event about an issue as it stands (issue.reminder, issue.reopened, issue.resolved), for the
-- pass's reminders and held-back changes, and for an operator's resolve or reopen.
CREATE FUNCTION hookline.emit_issue_event(issue_id text, event_type text, by_operator boolean DEFAULT false)
RETURNS text
LANGUAGE sql AS $$
  SELECT hookline.emit_operational_event(
           i.app_id, event_type,
           jsonb_strip_nulls(jsonb_build_object(
             'title', i.title, 'status', i.status, 'error_class', i.error_class, 'alert_rule_id', i.alert_rule_id,
             'event_count', i.event_count, 'affected_deliveries', i.affected_deliveries,
             'first_seen_at', i.first_seen_at, 'last_seen_at', i.last_seen_at, 'resolved_at', i.resolved_at)),
           endpoint_id => i.endpoint_id, issue_id => i.id, by_operator => by_operator)
    FROM hookline.issues AS i
   WHERE i.id = emit_issue_event.issue_id
$$;

-- 10. Endpoint transitions. endpoint.failing now fires at alert_failing_after_failures failures in a
-- row (or a streak of alert_failing_after, when the worker writes the row), once, until the endpoint
-- has recovered; endpoint.recovered is the operations pass's (it needs time to pass without failures).
-- The WHEN clause still keeps the PL/pgSQL call off every write of a healthy endpoint, and off every
-- write of an endpoint already failing: only a failure of an endpoint not yet failing calls it.
CREATE OR REPLACE FUNCTION hookline.endpoint_operational_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_settings hookline.operations_state;
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
    IF NEW.alert_failing_since IS NULL AND NEW.consecutive_failures > OLD.consecutive_failures THEN
      SELECT * INTO v_settings FROM hookline.operations_state;
      IF NEW.consecutive_failures >= v_settings.alert_failing_after_failures
         OR NEW.last_failure_at - NEW.failing_since >= v_settings.alert_failing_after_ms * interval '1 millisecond' THEN
        -- An AFTER trigger cannot change NEW; this second write of the row (once per outage) fails
        -- this trigger's WHEN clause, so it calls nothing.
        UPDATE hookline.endpoints AS e SET alert_failing_since = now() WHERE e.id = NEW.id AND e.alert_failing_since IS NULL;
        PERFORM hookline.emit_operational_event(NEW.app_id, 'endpoint.failing', v_health, NEW.id, v_class,
          issue_title => 'Failing: ' || NEW.consecutive_failures || ' attempts in a row (' || coalesce(v_class, 'unknown') || ')');
      END IF;
    END IF;
  EXCEPTION WHEN others THEN
    RAISE WARNING 'operational event for endpoint % not recorded: %', NEW.id, SQLERRM;
  END;
  RETURN NULL;
END $$;

DROP TRIGGER endpoints_operational_events ON hookline.endpoints;
CREATE TRIGGER endpoints_operational_events AFTER UPDATE ON hookline.endpoints
  FOR EACH ROW
  WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled
        OR (OLD.circuit_state = 'closed') IS DISTINCT FROM (NEW.circuit_state = 'closed')
        -- a failure of an endpoint not (yet) failing for alerting
        OR (NEW.alert_failing_since IS NULL AND NEW.consecutive_failures > OLD.consecutive_failures))
  EXECUTE FUNCTION hookline.endpoint_operational_events();

DROP FUNCTION hookline.operational_failing_threshold();
