-- The REST API's rate limit (HOOKLINE_API_RATE_LIMIT) and the sign-in limit, shared by every web
-- process: one token bucket per principal (API key, dashboard session user, sign-in email), taken by
-- one INSERT ... ON CONFLICT DO UPDATE per request (lib/api/rate-limit.ts). Counted in each process
-- before, so N web processes allowed N times the rate.
--
-- UNLOGGED: a bucket is worth a second of history; after a crash every bucket starts full, which is
-- what an idle key has anyway, and the table writes no WAL. The primary key is the only index, so the
-- per-request UPDATE is a HOT update (fillfactor leaves the room for it on the page).
-- `updated_ms` is the web process's clock in epoch milliseconds: the refill is computed from the
-- caller's time (clamped at zero when hosts' clocks disagree by a few milliseconds).
-- `allowed` is the outcome of the last take, so one statement both takes and answers.
CREATE UNLOGGED TABLE hookline.rate_limit_buckets (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  updated_ms bigint NOT NULL,
  allowed boolean NOT NULL
) WITH (fillfactor = 50);
