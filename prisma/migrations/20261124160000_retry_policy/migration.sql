-- Retry policy per endpoint, with a default per app: the delay before each attempt (the list that
-- HOOKLINE_RETRY_SCHEDULE holds for the whole deployment) and the per-attempt deadline.
-- An empty schedule or a NULL timeout means "inherit": an endpoint's from its app, an app's from the
-- deployment's variables. Empty rather than NULL because Prisma reads and writes scalar lists as
-- arrays, never NULL. Every existing row gets '{}' (a constant default: no table rewrite), so every
-- existing endpoint keeps the schedule and timeout it has today.
--
-- The worker reads the effective values with the rest of an endpoint's settings
-- (worker/sql/load-endpoints.sql, cached for 2 s), so a change reaches every worker within 2 s
-- without a restart. The bounds repeat the API's (lib/endpoints/retry-policy.ts) so that a row
-- written by hand cannot make a worker wait for years: at most 20 attempts, each delay at most 3 days,
-- the first entry 0 (the first attempt is sent at once; the entry only counts it).
ALTER TABLE hookline.endpoints
  ADD COLUMN retry_schedule_ms integer[] NOT NULL DEFAULT '{}'
    CONSTRAINT endpoints_retry_schedule_ms_check
    CHECK (cardinality(retry_schedule_ms) = 0
           OR (cardinality(retry_schedule_ms) <= 20
               AND retry_schedule_ms[1] = 0
               AND 0 <= ALL (retry_schedule_ms) AND 259200000 >= ALL (retry_schedule_ms)
               AND array_position(retry_schedule_ms, NULL) IS NULL));

ALTER TABLE hookline.apps
  ADD COLUMN retry_schedule_ms integer[] NOT NULL DEFAULT '{}'
    CONSTRAINT apps_retry_schedule_ms_check
    CHECK (cardinality(retry_schedule_ms) = 0
           OR (cardinality(retry_schedule_ms) <= 20
               AND retry_schedule_ms[1] = 0
               AND 0 <= ALL (retry_schedule_ms) AND 259200000 >= ALL (retry_schedule_ms)
               AND array_position(retry_schedule_ms, NULL) IS NULL)),
  -- Per-attempt deadline for the app's endpoints that set none; the range of endpoints.timeout_ms.
  ADD COLUMN timeout_ms integer CONSTRAINT apps_timeout_ms_check CHECK (timeout_ms BETWEEN 1 AND 300000);
