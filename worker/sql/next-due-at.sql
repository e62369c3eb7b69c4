-- Parameters: none.
-- When the next delivery becomes due, so an idle worker can sleep exactly until then instead of
-- polling: now if a message waits to be fanned out; else the first entry of deliveries_claim_idx, or
-- the end of a message lease that a dead worker left (release-expired-message-leases.sql), whichever
-- comes first.
SELECT CASE WHEN EXISTS (SELECT 1 FROM hookline.fanout_queue WHERE lease_owner IS NULL) THEN now()
            ELSE least((SELECT min(claimable_at) FROM hookline.deliveries WHERE claimable_at IS NOT NULL),
                       (SELECT min(lease_expires_at) FROM hookline.fanout_queue))
       END AS next_due_at
