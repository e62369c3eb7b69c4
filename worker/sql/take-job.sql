-- Parameters: $1 workerId, $2 leaseSeconds.
-- Takes the oldest unfinished job for worker $1, leased for $2 seconds: a queued one, or a running one
-- whose worker died or froze (its lease ran out). It resumes at the job's cursor, which only ever
-- moves in the same transaction as the rows its batch changed (job-advance.sql), so the rows a dead
-- worker committed are never done again and the ones it did not commit are done once.
-- SKIP LOCKED: a job whose batch is running right now holds its row lock (job-lock.sql), and workers
-- looking for work never wait on each other. Jobs are few (a partial index of unfinished ones), so
-- one worker takes one job at a time and the others take the next.
WITH next AS (
  SELECT id
    FROM hookline.jobs
   WHERE state IN ('queued', 'running')
     AND (lease_expires_at IS NULL OR lease_expires_at < now())
   ORDER BY created_at
   LIMIT 1
     FOR UPDATE SKIP LOCKED
)
UPDATE hookline.jobs AS j
   SET state = 'running',
       lease_owner = $1,
       lease_expires_at = now() + make_interval(secs => $2),
       started_at = coalesce(j.started_at, now()),
       updated_at = now()
  FROM next
 WHERE j.id = next.id
RETURNING j.id, j.app_id, j.kind, j.params, j.cursor, j.as_of, j.total, j.processed
