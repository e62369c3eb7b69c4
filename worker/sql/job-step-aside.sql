-- Parameters: $1 jobId, $2 workerId, $3 seconds.
-- A job with nothing to do right now (a paced backfill whose endpoint's queue is full, or that waits
-- for the fan-out) gives up the worker's one job slot when another job is waiting for a worker:
-- its lease is cut to $3 seconds, so take-job.sql passes it over (it takes the oldest job whose
-- lease is out) and takes the other one. Before, a backfill of a million messages to a slow endpoint
-- held its worker's slot for hours while doing nothing most of the time, and with one worker every
-- replay and recover queued behind it. Its lease then runs out in $3 seconds: any worker with a free
-- slot resumes it at its cursor; this one does once its other job ends. Nothing else waiting: it
-- keeps the slot (no row changes) and the runner polls it again.
UPDATE hookline.jobs AS j
   SET lease_expires_at = now() + make_interval(secs => $3),
       updated_at = now()
 WHERE j.id = $1
   AND j.lease_owner = $2
   AND j.state = 'running'
   AND EXISTS (SELECT 1 FROM hookline.jobs AS other
                WHERE other.state IN ('queued', 'running')
                  AND other.id <> $1
                  AND (other.lease_expires_at IS NULL OR other.lease_expires_at < now()))
RETURNING j.id
