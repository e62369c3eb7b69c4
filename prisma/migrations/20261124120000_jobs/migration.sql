-- Bulk actions as background jobs: replay by filter, recover an endpoint, backfill an endpoint.
-- Before, replay-by-filter and recover were one UPDATE inside the HTTP request: a filter matching a
-- million deliveries held row locks on all of them for the whole statement and timed the request
-- out. Now the request only counts the set (the dry run's count, kept as `total`) and writes a row
-- here; workers take it with SKIP LOCKED under a lease and work through it in short transactions of
-- a few thousand rows (worker/jobs/job-runner.ts, worker/sql/job-*.sql).
--
-- cursor: where the next batch starts (keyset), advanced in the same transaction as that batch's
-- rows, so a killed worker's job resumes exactly after the last committed batch and no row is acted
-- on twice. params: the filter (replay), or {endpointId, since} (recover, backfill); as_of bounds the
-- set to rows that existed when the job was created, the rows its total counted.
CREATE TABLE hookline.jobs (
  id                text PRIMARY KEY DEFAULT hookline.new_id('job'),
  app_id            text NOT NULL REFERENCES hookline.apps (id) ON DELETE CASCADE,
  kind              text NOT NULL CHECK (kind IN ('replay', 'recover', 'backfill')),
  params            jsonb NOT NULL DEFAULT '{}',
  state             text NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  total             integer NOT NULL DEFAULT 0,
  processed         integer NOT NULL DEFAULT 0,
  cursor            jsonb,
  as_of             timestamptz NOT NULL DEFAULT now(),
  lease_owner       text,
  lease_expires_at  timestamptz,
  error             text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  finished_at       timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT jobs_lease_check CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL)),
  CONSTRAINT jobs_finished_check CHECK ((state IN ('succeeded', 'failed', 'cancelled')) = (finished_at IS NOT NULL))
);

-- Lists per app, newest first (the dashboard's Jobs page and GET /apps/{appId}/jobs).
CREATE INDEX jobs_app_id_created_at_idx ON hookline.jobs (app_id, created_at DESC);
-- What workers look for every second: the unfinished jobs, a handful at most, so a partial index.
CREATE INDEX jobs_unfinished_idx ON hookline.jobs (created_at) WHERE state IN ('queued', 'running');
