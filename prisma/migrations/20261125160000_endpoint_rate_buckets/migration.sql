-- An endpoint's rate limit (endpoints.rate_limit_per_second) was accepted, stored and shown, and
-- enforced nowhere: the worker never read it (issue 23). Every worker now takes tokens from one bucket
-- per limited endpoint before sending (worker/sql/take-endpoint-tokens.sql), so the limit holds for the
-- deployment, not per worker process.
--
-- UNLOGGED, as the API's buckets (migration 20261124090000_rate_limit): a bucket is worth a second of
-- history, writes no WAL, and after a crash starts full, which is what an idle endpoint has anyway. The
-- primary key is the only index and fillfactor leaves room, so each take is a HOT update.
-- `wanted` and `rate` are the last take's request (an upsert's DO UPDATE sees only the proposed row's
-- columns, so they travel in it); `granted` is its answer, and `updated_at` its time: the endpoint page
-- shows an endpoint as held by its limit while its last take, less than a few seconds ago, was short.
CREATE UNLOGGED TABLE hookline.endpoint_rate_buckets (
  endpoint_id text PRIMARY KEY,
  tokens double precision NOT NULL,
  rate double precision NOT NULL,
  wanted integer NOT NULL,
  granted integer NOT NULL,
  updated_at timestamptz NOT NULL
) WITH (fillfactor = 50);
