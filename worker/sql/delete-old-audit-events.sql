-- Parameters: $1 olderThanMs, $2 limit.
-- Retention of the audit log (migration 20261127120000_audit_events): rows older than $1 ms
-- (HOOKLINE_AUDIT_RETENTION, default a year), at most $2 per statement. One row per operator action,
-- so a run finds a few rows at most once it has caught up; the (created_at DESC, id DESC) index finds
-- them without a scan.
DELETE FROM hookline.audit_events
 WHERE id IN (SELECT id FROM hookline.audit_events
               WHERE created_at < now() - make_interval(secs => $1::bigint / 1000.0)
               LIMIT $2)
