-- Retention: deletes up to $2 messages older than $1 ms that no delivery refers to any more (their
-- deliveries were removed by retention, or no endpoint matched when they were fanned out), and that
-- no worker has still to fan out. Found per app by creation time (messages_app_id_created_at_idx):
-- an index on created_at alone cost every producer's insert one more entry (migration
-- 20261124110000_hot_first_attempts).
DELETE FROM hookline.messages
 WHERE id IN (
   SELECT old.id
     FROM hookline.apps AS a
     CROSS JOIN LATERAL (
       SELECT m.id
         FROM hookline.messages AS m
        WHERE m.app_id = a.id
          AND m.created_at < now() - make_interval(secs => $1::bigint / 1000.0)
          AND NOT EXISTS (SELECT 1 FROM hookline.deliveries AS d WHERE d.message_id = m.id)
          AND NOT EXISTS (SELECT 1 FROM hookline.fanout_queue AS q WHERE q.message_id = m.id)
        ORDER BY m.created_at
        LIMIT $2
     ) AS old
    LIMIT $2
 )
