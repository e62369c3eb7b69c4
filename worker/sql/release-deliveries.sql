-- Gives leased deliveries back without spending an attempt: on shutdown for work not yet started,
-- for a disabled endpoint, or while an endpoint's circuit is open. $3 is when they become due again.
-- Fenced by the lease owner like every completion.
UPDATE hookline.deliveries
   SET state = 'pending',
       lease_owner = NULL,
       lease_expires_at = NULL,
       next_attempt_at = $3,
       updated_at = now()
 WHERE id = ANY($2::text[])
   AND state = 'delivering'
   AND lease_owner = $1
