-- The audit log (issue 24, item 4): one row per change made through the API or the dashboard, written
-- in the transaction that makes the change (lib/domain/audit/record-audit-event.ts), so a change that
-- rolls back leaves no row and a row always names a change that happened.
--
-- Append-only: nothing updates a row (the trigger below refuses it, whoever asks). Rows leave only by
-- age, through the worker's retention (worker/sql/delete-old-audit-events.sql,
-- HOOKLINE_AUDIT_RETENTION). Rows are small (~300 bytes plus the changed fields) and one is written per
-- operator action, never per delivery, so a plain table with a DELETE by age is enough here.
--
-- actor_type: 'admin' (a signed-in dashboard user), 'api_key', 'portal' (a customer's portal session),
-- or 'system' (a change made outside a request, e.g. a script); actor_id is that user's, key's or
-- session's id, actor_label what a person recognises (the user's email, the key's name).
-- changes: {"before": {...}, "after": {...}} of the fields that changed; secrets are never in it.
CREATE TABLE hookline.audit_events (
  id             text PRIMARY KEY DEFAULT hookline.new_id('aud'),
  created_at     timestamptz NOT NULL DEFAULT now(),
  app_id         text,
  actor_type     text NOT NULL CHECK (actor_type IN ('admin', 'api_key', 'portal', 'system')),
  actor_id       text,
  actor_label    text,
  action         text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text NOT NULL,
  changes        jsonb NOT NULL DEFAULT '{}',
  remote_address text
);

-- The dashboard's page and GET /api/v1/audit-events: newest first, cursor on (created_at, id), all apps
-- or one. No foreign key to apps: the record of an app's deletion outlives the app.
CREATE INDEX audit_events_created_at_idx ON hookline.audit_events (created_at DESC, id DESC);
CREATE INDEX audit_events_app_id_created_at_idx ON hookline.audit_events (app_id, created_at DESC, id DESC);
CREATE INDEX audit_events_resource_idx ON hookline.audit_events (resource_id, created_at DESC);

CREATE FUNCTION hookline.refuse_audit_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'hookline.audit_events is append-only: rows are never updated'
    USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON hookline.audit_events
  FOR EACH ROW EXECUTE FUNCTION hookline.refuse_audit_update();

-- A change an operator should hear about at once (today: an API key that reaches every app), sent to
-- the operational endpoints like any other operational event.
INSERT INTO hookline.event_types (app_id, name, description)
VALUES (hookline.operations_app_id(), 'audit.sensitive_change',
        'A sensitive change was made (an API key for every app was created); the audit log has the details.')
ON CONFLICT (app_id, name) DO NOTHING;
