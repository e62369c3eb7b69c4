-- Issues owed a notification (migration 20261126120000_alert_notifications), for the operations pass:
--   a change held back by alert_min_interval that still holds: issue.resolved (told open, now
--     resolved) or issue.reopened (told resolved, open again);
--   issue.reminder: open (not acknowledged) and told so alert_reminder_interval ago, or never told
--     (it opened while muted, and the mute is over).
-- issues_notify_idx holds only unresolved issues and resolved ones whose resolve is owed.
SELECT i.id,
       CASE WHEN i.status = 'resolved' THEN 'issue.resolved'
            WHEN i.notified_status = 'resolved' THEN 'issue.reopened'
            ELSE 'issue.reminder' END AS event_type
  FROM hookline.issues AS i
 CROSS JOIN hookline.operations_state AS s
 WHERE (i.status <> 'resolved' OR i.notified_status = 'open')
   AND (i.muted_until IS NULL OR i.muted_until <= now())
   AND (i.notified_at IS NULL OR i.notified_at <= now() - s.alert_min_interval_ms * interval '1 millisecond')
   AND CASE WHEN i.status = 'resolved' THEN i.notified_status = 'open'
            WHEN i.notified_status IS NULL THEN i.status = 'open'
            WHEN i.notified_status = 'resolved' THEN true
            ELSE i.status = 'open' AND s.alert_reminder_interval_ms > 0
                 AND i.notified_at <= now() - s.alert_reminder_interval_ms * interval '1 millisecond' END
 ORDER BY i.id
