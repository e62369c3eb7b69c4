-- Deliveries lose their (app_id, created_at) index: one B-tree entry fewer for every delivery a
-- fan-out writes (issue 22: <= 1,000 B of WAL per event). PostgreSQL 15 in en_US.UTF-8, 20k drains
-- interleaved with and without it: 1,433-1,440 against 1,324-1,335 B of WAL per event
-- (bench/README.md); the index held an entry for every delivery ever written and served one kind of
-- read, an app's deliveries newest first.
--
-- What reads those now (lib/domain/deliveries/list-app-deliveries.ts): the app's endpoints, each one's
-- newest deliveries through deliveries_endpoint_id_created_at_idx, merged. Its dead ones, queued ones
-- (waiting, retrying) and failed ones (either) come the same way from the two partial indexes below,
-- which now end in created_at so that each endpoint's part is read in time order and stops at a page:
-- without it, the dead list read every endpoint's history that had few dead rows (3.8 s at the
-- dashboard bench's 10 M, against 2.6 ms). Both hold few rows (dead ones; rows in the claim queue),
-- so the extra column costs writers little: a first attempt sent under its fan-out batch enters
-- neither.
--
-- The indexes are rebuilt on every partition while writers wait (their rows are few, but the build
-- reads every delivery once).
DROP INDEX hookline.deliveries_app_id_created_at_idx;

DROP INDEX hookline.deliveries_dead_idx;
CREATE INDEX deliveries_dead_idx ON hookline.deliveries (app_id, endpoint_id, created_at DESC)
  WHERE last_error_class IS NOT NULL AND claimable_at IS NULL;

DROP INDEX hookline.deliveries_queue_idx;
CREATE INDEX deliveries_queue_idx ON hookline.deliveries (app_id, endpoint_id, created_at DESC)
  WHERE claimable_at IS NOT NULL;
