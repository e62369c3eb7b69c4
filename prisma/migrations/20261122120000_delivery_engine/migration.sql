-- The delivery engine's bookkeeping: the circuit breaker's back-off, the failure streak behind
-- auto-disable, and what retention needs to find finished rows without touching the hot queue.

-- When the current run of failures began (NULL while the endpoint succeeds). Auto-disable compares it
-- with HOOKLINE_AUTO_DISABLE_AFTER; a streak that began 5 days ago means 5 days without one success.
ALTER TABLE hookline.endpoints
  ADD COLUMN failing_since timestamptz,
  -- How long the circuit stays open this time. The first opening waits HOOKLINE_CIRCUIT_OPEN_BASE; each
  -- failed probe doubles it up to HOOKLINE_CIRCUIT_OPEN_MAX; a success clears it.
  ADD COLUMN circuit_backoff_ms integer CHECK (circuit_backoff_ms > 0);

-- Retention deletes finished deliveries (their attempts follow by ON DELETE CASCADE) oldest first in
-- bounded batches. This index holds finished rows only, so finding the next batch is a range read and
-- the claim index (deliveries_claim_idx, unfinished rows only) never sees them.
CREATE INDEX deliveries_finished_idx ON hookline.deliveries (updated_at)
  WHERE state IN ('succeeded', 'dead', 'cancelled');

-- Samples and rollups are removed by time range too.
CREATE INDEX queue_depth_samples_sampled_at_idx ON hookline.queue_depth_samples (sampled_at);
CREATE INDEX stats_minutely_minute_idx ON hookline.stats_minutely (minute);

-- The once-a-minute queue depth sample counts dead deliveries per app from this index alone instead
-- of scanning every finished row.
CREATE INDEX deliveries_dead_idx ON hookline.deliveries (app_id) WHERE state = 'dead';

-- Retention finds messages past the retention period that no delivery refers to any more.
CREATE INDEX messages_created_at_idx ON hookline.messages (created_at);
