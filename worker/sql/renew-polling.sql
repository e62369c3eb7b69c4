-- Parameters: $1 workerId, $2 lifetimeMs.
-- This worker is polling for work for the next $2 ms: while a row here is live, hookline.send's
-- trigger skips its NOTIFY (which would serialize producers' commits; migration
-- 20261122170000_notify_only_idle_workers). Renewed at most every half second while busy.
INSERT INTO hookline.polling_workers (worker_id, until)
VALUES ($1, now() + make_interval(secs => $2::int / 1000.0))
ON CONFLICT (worker_id) DO UPDATE SET until = excluded.until
