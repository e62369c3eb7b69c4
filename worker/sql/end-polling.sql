-- Parameters: $1 workerId.
-- This worker goes back to sleeping on LISTEN: producers must notify again.
DELETE FROM hookline.polling_workers WHERE worker_id = $1
