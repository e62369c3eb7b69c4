-- When the next delivery becomes due, so an idle worker can sleep exactly until then instead of
-- polling: now if a message waits to be fanned out, else the first entry of deliveries_claim_idx.
SELECT CASE WHEN EXISTS (SELECT 1 FROM hookline.fanout_queue) THEN now()
            ELSE (SELECT min(next_attempt_at) FROM hookline.deliveries WHERE state IN ('pending', 'delivering'))
       END AS next_due_at
