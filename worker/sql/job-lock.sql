-- Parameters: $1 jobId, $2 workerId.
-- The fence each batch starts with, inside its transaction: the job is still running and still leased
-- to this worker ($2). No row means it was cancelled (cancel-job sets the state) or its lease ran out
-- and another worker took it; the batch then changes nothing. Holding this row lock until the batch
-- commits is what makes a cancel wait for at most one batch (a few thousand rows, tens of ms) and
-- then see its progress exactly, and what keeps take-job.sql from handing the job to a second worker
-- while a batch is in flight.
SELECT id, cursor
  FROM hookline.jobs
 WHERE id = $1
   AND lease_owner = $2
   AND state = 'running'
   FOR UPDATE
