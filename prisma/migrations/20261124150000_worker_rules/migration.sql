-- The rules a result flush applies, each in one home (issue 11). worker/sql/record-results.sql used to
-- hold them inline: the circuit breaker's opening condition written three times, auto-disable's three
-- times, and four rollup upserts of the same shape. The flush statement now records the deliveries and
-- calls these; nothing about what it writes changes. The rollups' function, hookline.add_to_rollups,
-- is created with the rollup shards it writes (migration 20261124152000_rollup_shards).

-- The circuit breaker of one endpoint after a flush's attempts for it. Its states:
--   closed     deliveries are sent; failures in a row are counted.
--   open       nothing is sent until open_until (deliveries wait without spending an attempt).
--   half_open  one probe is out (worker/sql/take-circuit-probe.sql lets one worker flip open to
--              half_open when open_until has passed; the probe holds it until its deadline).
-- Transitions, judged on the attempts of one flush (failures_after_success: the failures after the
-- last success in the batch, or all of them when none succeeded):
--   any success that is the batch's last attempt          -> closed, counters cleared
--   half_open, no success (the probe failed)               -> open again, the wait doubled up to open_max_ms
--   open, no success (attempts that were already in flight) -> stays open, nothing changes
--   streak (earlier failures unless a success broke it, plus failures_after_success) >= threshold
--                                                          -> open for open_base_ms
--   otherwise                                              -> closed, counting
-- Invariant: open_until and backoff_ms are NULL exactly when the circuit is closed.
CREATE FUNCTION hookline.circuit_after_attempts(
  circuit_state text, consecutive_failures integer, backoff_ms integer, open_until timestamptz,
  failures_after_success bigint, succeeded boolean,
  failure_threshold integer, open_base_ms integer, open_max_ms integer,
  OUT next_consecutive_failures integer, OUT next_state text, OUT next_backoff_ms integer,
  OUT next_open_until timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  next_consecutive_failures := CASE WHEN succeeded THEN 0 ELSE consecutive_failures END + failures_after_success;
  IF failures_after_success = 0 THEN
    next_state := 'closed';                   -- the batch ended on a success
  ELSIF circuit_state = 'half_open' AND NOT succeeded THEN
    next_state := 'open';                     -- the probe failed: wait twice as long
    next_backoff_ms := least(open_max_ms, 2 * coalesce(backoff_ms, open_base_ms));
    next_open_until := now() + make_interval(secs => next_backoff_ms / 1000.0);
  ELSIF circuit_state = 'open' AND NOT succeeded THEN
    next_state := 'open';                     -- attempts already in flight when it opened
    next_backoff_ms := backoff_ms;
    next_open_until := open_until;
  ELSIF next_consecutive_failures >= failure_threshold THEN
    next_state := 'open';
    next_backoff_ms := open_base_ms;
    next_open_until := now() + make_interval(secs => open_base_ms / 1000.0);
  ELSE
    next_state := 'closed';                   -- counting
  END IF;
END;
$$;

-- Auto-disable of one endpoint after a flush's attempts for it: a 410 Gone disables it at once; a
-- failure streak that began more than auto_disable_after_ms ago (0: never) disables it too. An
-- endpoint already disabled keeps its reason and time.
CREATE FUNCTION hookline.disabled_after_attempts(
  enabled boolean, disabled_reason text, disabled_at timestamptz,
  streak integer, streak_since timestamptz, succeeded boolean, gone_at timestamptz,
  auto_disable_after_ms bigint,
  OUT next_enabled boolean, OUT next_reason text, OUT next_disabled_at timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  next_enabled := enabled;
  next_reason := disabled_reason;
  next_disabled_at := disabled_at;
  IF NOT enabled THEN
    RETURN;
  ELSIF gone_at IS NOT NULL THEN
    next_reason := 'The receiver answered 410 Gone at '
                   || to_char(gone_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC';
  ELSIF auto_disable_after_ms > 0 AND NOT succeeded
        AND streak_since < now() - make_interval(secs => auto_disable_after_ms / 1000.0) THEN
    next_reason := 'No successful delivery since '
                   || to_char(streak_since AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
                   || ' UTC (' || streak || ' failed attempts in a row)';
  ELSE
    RETURN;
  END IF;
  next_enabled := false;
  next_disabled_at := now();
END;
$$;
