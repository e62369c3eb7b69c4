-- Endpoint health, shared by every worker and read by the dashboard and the API.
-- The circuit breaker lives in the row, not in one worker's memory: with N workers, an endpoint that
-- is down must stop receiving from all of them, and the dashboard must be able to show the state.
ALTER TABLE hookline.endpoints
  ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
  ADD COLUMN circuit_state text NOT NULL DEFAULT 'closed'
    CHECK (circuit_state IN ('closed', 'open', 'half_open')),
  -- While open, deliveries wait (without spending attempts) until this time, then one probe is sent.
  ADD COLUMN circuit_open_until timestamptz,
  ADD COLUMN last_success_at timestamptz,
  ADD COLUMN last_failure_at timestamptz,
  ADD COLUMN last_error_class text;

-- Queue depth over time, for the dashboard's queue chart. Counting the queue is cheap now (partial
-- index) but its history is not recoverable afterwards, so a worker samples it once a minute.
CREATE TABLE hookline.queue_depth_samples (
  sampled_at  timestamptz NOT NULL,
  app_id      text NOT NULL,
  -- 'pending' (due now), 'scheduled' (a retry waiting for its time), 'delivering', 'dead'
  state       text NOT NULL CHECK (state IN ('pending', 'scheduled', 'delivering', 'dead')),
  count       bigint NOT NULL,
  CONSTRAINT queue_depth_samples_pkey PRIMARY KEY (sampled_at, app_id, state)
);
CREATE INDEX queue_depth_samples_app_id_sampled_at_idx ON hookline.queue_depth_samples (app_id, sampled_at);
