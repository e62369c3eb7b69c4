-- Endpoints whose failing state for alerting changes with time alone (migration
-- 20261126120000_alert_notifications), for the operations pass:
--   'failing': not failing yet, and no success since failing_since, alert_failing_after ago or more
--     (an endpoint with little traffic never reaches alert_failing_after_failures; the count is the
--     trigger's, the moment the worker writes the row);
--   'recovered': failing, its last attempt succeeded, and no failure for alert_recovered_after.
-- A sequential scan of hookline.endpoints: no index serves "failing_since older than T" without
-- costing the worker's result writes their HOT updates (migration 20261124110000_hot_first_attempts),
-- and a minute's scan of even 10,000 endpoints reads ~200 pages.
SELECT e.id, e.app_id, e.consecutive_failures, e.last_error_class, e.circuit_state, e.failing_since,
       e.last_failure_at, e.alert_failing_since,
       CASE WHEN e.alert_failing_since IS NULL THEN 'failing' ELSE 'recovered' END AS change
  FROM hookline.endpoints AS e
 CROSS JOIN hookline.operations_state AS s
 WHERE e.app_id <> hookline.operations_app_id()
   AND ((e.alert_failing_since IS NULL AND e.enabled AND e.consecutive_failures > 0
         AND e.failing_since <= now() - s.alert_failing_after_ms * interval '1 millisecond')
     OR (e.alert_failing_since IS NOT NULL AND e.consecutive_failures = 0
         AND coalesce(e.last_failure_at, '-infinity') <= now() - s.alert_recovered_after_ms * interval '1 millisecond'))
 ORDER BY e.id
