-- Parameters: $1 jobId, $2 workerId, $3 cursor, $4 changed, $5 done, $6 leaseSeconds.
-- Records a batch in the batch's own transaction (after job-lock.sql): the cursor moves to $3 (NULL
-- keeps it), processed grows by $4, and the lease is renewed for $6 seconds, or the job ends as
-- succeeded when $5 says the set is exhausted. Crash cost: none; before the commit neither the rows
-- nor the cursor moved, after it both did.
UPDATE hookline.jobs
   SET cursor = coalesce($3::jsonb, cursor),
       processed = processed + $4,
       state = CASE WHEN $5 THEN 'succeeded' ELSE state END,
       finished_at = CASE WHEN $5 THEN now() END,
       lease_owner = CASE WHEN $5 THEN NULL ELSE lease_owner END,
       lease_expires_at = CASE WHEN $5 THEN NULL ELSE now() + make_interval(secs => $6) END,
       updated_at = now()
 WHERE id = $1
   AND lease_owner = $2
   AND state = 'running'
RETURNING processed, state
