-- Every enabled alert rule with its current value, from what is already aggregated:
--   success_rate_below: percent of attempts that succeeded over the last window_minutes, from
--     stats_app_minutely (its primary key leads with minute: a range of window_minutes minutes);
--     NULL when there were no attempts (the rule then keeps its state: no traffic is no evidence).
--   oldest_waiting_above: seconds the oldest due, unsent delivery of the app has waited, looked for
--     only among rows due more than threshold seconds ago (deliveries_claim_idx on claimable_at), so a
--     healthy queue reads nothing; 0 when there is none that old. A delivery held by an open circuit
--     is not due (claimable_at is the circuit's reopening).
--   dead_per_hour_above: deliveries that went dead in the last hour, as the operations pass counted
--     them into issues (issue_deliveries_app_id_detected_at_idx).
SELECT r.id, r.app_id, r.kind, r.threshold, r.window_minutes, r.firing, r.description,
       CASE r.kind
         WHEN 'success_rate_below' THEN (
           SELECT 100.0 * coalesce(sum(s.attempts) FILTER (WHERE s.outcome = 'succeeded'), 0) / nullif(sum(s.attempts), 0)
             FROM hookline.stats_app_minutely AS s
            WHERE s.minute >= date_trunc('minute', now()) - make_interval(mins => r.window_minutes)
              AND s.app_id = r.app_id)
         WHEN 'oldest_waiting_above' THEN coalesce((
           SELECT extract(epoch FROM now() - d.claimable_at)
             FROM hookline.deliveries AS d
            WHERE d.claimable_at IS NOT NULL
              AND d.claimable_at < now() - make_interval(secs => r.threshold)
              AND d.app_id = r.app_id AND d.state = 'pending'
            ORDER BY d.claimable_at
            LIMIT 1), 0)
         WHEN 'dead_per_hour_above' THEN (
           SELECT count(*)::double precision
             FROM hookline.issue_deliveries AS x
            WHERE x.app_id = r.app_id AND x.detected_at > now() - interval '1 hour')
       END AS value
  FROM hookline.alert_rules AS r
 WHERE r.enabled
 ORDER BY r.id
