-- A successful attempt is kept on its delivery row (status, time and now its duration) instead of in
-- an attempt row of its own: with one attempt row per success, attempts were a heap row and three
-- index entries per event, a third of the WAL (bench/README.md, "Write path v2"). Failures and the
-- final failed attempt still get full rows; HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS=true keeps successes too.
-- Rows recorded before this migration have their duration in their attempt row, where the views still
-- find it (lib/deliveries/delivery-view.ts): nothing to rewrite here, so the migration is instant.
ALTER TABLE hookline.deliveries ADD COLUMN last_duration_ms double precision;
