-- When the next delivery becomes due, so an idle worker can sleep exactly until then instead of
-- polling. One read of the first entry of deliveries_claim_idx.
SELECT min(next_attempt_at) AS next_due_at
  FROM hookline.deliveries
 WHERE state IN ('pending', 'delivering')
