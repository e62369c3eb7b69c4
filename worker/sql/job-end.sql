-- Parameters: $1 jobId, $2 workerId, $3 state, $4 error.
-- Ends a job this worker ($2) holds: 'failed' with an error message ($4) after repeated database
-- errors or when its target is gone, or back to the queue ($3 = 'running', no error) when the worker
-- stops, so another worker resumes it at once instead of after the lease.
UPDATE hookline.jobs
   SET state = $3,
       error = $4,
       finished_at = CASE WHEN $3 = 'running' THEN NULL ELSE now() END,
       lease_owner = NULL,
       lease_expires_at = NULL,
       updated_at = now()
 WHERE id = $1
   AND lease_owner = $2
   AND state = 'running'
