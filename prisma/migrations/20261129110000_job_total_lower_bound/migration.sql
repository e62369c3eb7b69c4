-- A replay job with a payload search counts its total under a cap and a time budget
-- (lib/domain/deliveries/count-replay-matching.ts): no index serves a payload condition, and counting
-- a large history to the end held the POST that creates the job for as long as it took. When the count
-- stopped early, the total is a lower bound, and says so, so the progress reads "of at least N". The job
-- itself still goes through every matching row (worker/sql/job-replay-batch.sql), whatever the total.
-- A NOT NULL column with a constant default: a catalog change, no rewrite of the jobs table.
ALTER TABLE hookline.jobs
  ADD COLUMN total_is_lower_bound boolean NOT NULL DEFAULT false;
