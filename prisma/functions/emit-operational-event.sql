-- hookline.emit_operational_event(...): records one operational event (endpoint.failing,
-- delivery.dead, alert.fired, issue.*), files it under its issue (one per subject and error class:
-- opened, counted, reopened), and sends it, at most once per HOOKLINE_ALERT_MIN_INTERVAL per issue and
-- only when it changes what operators were last told, as messages of the operations app to its
-- operational endpoints. Callers: the trigger on hookline.endpoints, the worker's operations pass
-- (worker/operations/run-operations-pass.ts) and hookline.emit_issue_event. First defined by migration
-- 20261124130000_operational_events; this file is its current body (lib/database/migrate.ts).
CREATE OR REPLACE FUNCTION hookline.emit_operational_event(
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
             -- An issue is named by the endpoint's state (failing, circuit opened, disabled and why):
             -- a count of dead deliveries joining it is counted, not a new name (a delivery.dead pass
             -- a minute after endpoint.failing renamed "Failing: ..." to "Deliveries dead (...)" under
             -- the operator reading it). A reopen takes the new event's title whatever it is.
             title = CASE WHEN i.status = 'resolved' OR event_type <> 'delivery.dead'
                          THEN EXCLUDED.title ELSE i.title END,
             status = CASE WHEN i.status = 'resolved' THEN 'open' ELSE i.status END,
             reopened_count = i.reopened_count + (i.status = 'resolved')::int,
             acknowledged_at = CASE WHEN i.status = 'resolved' THEN NULL ELSE i.acknowledged_at END,
             resolved_at = CASE WHEN i.status = 'resolved' THEN NULL ELSE i.resolved_at END
      RETURNING i.id INTO v_issue_id;
      IF cardinality(delivery_ids) > 0 THEN
        INSERT INTO hookline.issue_deliveries (issue_id, delivery_id, app_id)
        SELECT v_issue_id, hookline.uuid_of('dlv', d), app_id FROM unnest(delivery_ids) AS d
         WHERE hookline.uuid_of('dlv', d) IS NOT NULL  -- public ids; one of no delivery names none
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
  )
  INSERT INTO hookline.messages (app_id, event_type, payload, target_endpoint_id, created_at)
  SELECT v_ops, event_type,
         CASE WHEN t.payload_template IS NULL THEN v_data
              ELSE hookline.render_operational_payload(t.payload_template, event_type, v_now, v_data,
                     CASE WHEN event_type IN ('endpoint.recovered', 'alert.resolved', 'issue.resolved')
                          THEN 'resolve' ELSE 'trigger' END) END,
         t.endpoint_id, v_now
    FROM targets AS t;
  IF FOUND THEN
    PERFORM hookline.wake_sleeping_workers();
  END IF;
  RETURN v_event_id;
END $$;
