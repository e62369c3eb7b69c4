-- Parameters: $1 workerId, $2 deliveryIds, $3 states, $4 nextAttemptAts, $5 startedAts,
--   $6 durationsMs, $7 statusCodes, $8 errorClasses, $9 errorMessages, $10 requestHeaders,
--   $11 responseHeaders, $12 responseBodies, $13 responsesTruncated, $14 circuitFailureThreshold,
--   $15 circuitOpenBaseMs, $16 circuitOpenMaxMs, $17 autoDisableAfterMs,
--   $18 keepSuccessfulAttempts, $19 settledBatchIds, $20 rollupShard, $21 attemptCounts, $22 batchIds,
--   $23 appIds, $24 endpointIds, $25 messageIds, $26 eventTypes, $27 createdAts.
-- Writes back a batch of finished attempts in one round trip: the deliveries' new states, an attempt
-- row for each failure, the endpoints' health and circuit breaker, and the rollups the dashboard reads.
-- One statement instead of 4 per attempt: at 2,000 attempts/s this is ~10 flushes/s, not 8,000 queries.
-- The rules it applies have one home each (migration 20261124150000_worker_rules):
-- hookline.circuit_after_attempts (the circuit breaker's states and transitions),
-- hookline.disabled_after_attempts (auto-disable), and hookline.add_to_rollups (the dashboard's rollups,
-- migration 20261124152000_rollup_shards).
-- A success is kept on its delivery row alone (status, time, duration: the final attempt's numbers),
-- unless $18 (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS) asks for its full row with headers and body. An
-- attempt row for every success was a third of the WAL: a heap row and three index entries per event.
-- A first attempt leased by a fan-out has no row yet ($22-$27 name its fan-out batch and what its row
-- holds; NULL for every other result): its row is inserted here, once, with its outcome (migration
-- 20261206090000_first_attempts_written_once). The fan-out inserted it 'delivering' and this statement
-- updated it before: the update was 150 B of WAL per event (bench/README.md). Fenced by its batch's
-- row, which holds its lease: written only if that row is still this worker's (locked FOR SHARE, before
-- any delivery: no release of expired leases writes the row meanwhile, and once one has, the batch
-- row is gone), if its endpoint still exists (locked FOR KEY SHARE: a deletion waits), and if no row
-- of its id exists (a flush whose answer was lost, written again). Every other result:
-- Fenced: a delivery changes only if it is still leased to this worker ($1), which (constraint
-- deliveries_lease_check) means still 'delivering' and ours. A worker that froze past its lease and
-- wakes up late changes nothing (no attempt row, no health change, no rollup), because another worker
-- has taken the delivery over. And only by the attempt it was sent as ($21: the attempts recorded
-- before it, which each recorded result raises by one): the worker id alone named the worker, not the
-- lease. A flush that committed but whose answer was lost (its query timed out client-side, the
-- connection dropped) is written again later; if this worker had meanwhile claimed the delivery
-- again for its retry, the old result passed the fence, ended the new lease mid-send, and another
-- worker sent the delivery a second time while this one was still sending it.
-- The fence names no column that any index but the primary key covers, so every PostgreSQL version
-- finds each result (and looks for each first attempt's row) by primary key and a flush costs what its batch holds, whatever the backlog. With
-- "state = 'delivering'" in this WHERE, PostgreSQL 15 read every delivering row through an index
-- whose statistics had seen none: 500 results took 2,757 ms behind a 20,000-row backlog instead of
-- 21 ms, the backlog fed itself, leases ran out and deliveries were sent twice.
-- The batch also deletes the fan-out batch rows ($19) whose first attempts' outcomes were all written
-- before it (worker/leases.ts says why not sooner): they were those attempts' lease
-- (fan-out-messages.sql). One row per fan-out, not per message.
-- Lock order: every statement that locks both a fan-out batch row and its deliveries takes the batch
-- row first (release-expired-batch-leases.sql, release-deliveries.sql, renew-leases.sql,
-- release-stray-leases.sql and this one). A flush that locked its deliveries first deadlocked with
-- another worker's release of expired leases after a PostgreSQL restart.
-- Crash cost: results buffered in memory and not yet written here are lost; their deliveries stay
-- leased and are delivered again after the lease (at-least-once, same webhook-id and body). This
-- statement is atomic, so a crash during it loses the whole batch the same way, never half of it.
-- Two workers flushing failures of the same endpoints may deadlock on the endpoint rows; Postgres
-- aborts one statement, and that worker keeps its batch and flushes it again.
WITH results AS (
  SELECT *
    FROM unnest($2::uuid[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::float8[], $7::int[],
                $8::text[], $9::text[], $10::jsonb[], $11::jsonb[], $12::text[], $13::bool[], $21::int[],
                $22::bigint[], $23::text[], $24::text[], $25::uuid[], $26::text[], $27::timestamptz[])
      AS r(delivery_id, state, next_attempt_at, started_at, duration_ms, status_code,
           error_class, error_message, request_headers, response_headers, response_body, response_truncated,
           attempts_before, batch_id, app_id, endpoint_id, message_id, event_type, created_at)
), held_batches AS (
  -- The fan-out batches whose rows hold the lease of this flush's first attempts, still this worker's:
  -- locked, so that no release of expired leases gives those deliveries back while their rows are written.
  SELECT b.id
    FROM hookline.fanout_batches AS b
   WHERE b.id = ANY ($22::bigint[])
     AND b.lease_owner = $1
     FOR SHARE
), live_endpoints AS (
  -- The endpoints of this flush's first attempts that still exist, key-share locked: an endpoint's
  -- deletion (which deletes its deliveries) waits for this write, or this write sees it gone and
  -- writes no row for it.
  SELECT e.id
    FROM hookline.endpoints AS e
   WHERE e.id = ANY ($24::text[])
     FOR KEY SHARE
), settled_batches AS (
  -- $19: fan-out batches whose first attempts are all recorded or released; their rows held the lease.
  DELETE FROM hookline.fanout_batches AS b
   WHERE b.id = ANY ($19::bigint[])
     AND b.lease_owner = $1
  RETURNING b.id
), updated AS (
  UPDATE hookline.deliveries AS d
     SET state = r.state,
         attempt_count = d.attempt_count + 1,
         next_attempt_at = coalesce(r.next_attempt_at, d.next_attempt_at),
         -- NULL for one that succeeded or died: it leaves the claim index. (A first attempt leased by a
         -- fan-out is not updated here but written once, below; one written leased before migration
         -- 20261206090000 had claimable_at NULL already, and its update stays HOT.)
         claimable_at = r.next_attempt_at,
         lease_owner = NULL,
         lease_expires_at = NULL,
         last_attempt_at = r.started_at,
         last_status_code = r.status_code,
         last_error_class = r.error_class,
         last_duration_ms = r.duration_ms,
         updated_at = now()
    FROM results AS r
   WHERE r.batch_id IS NULL
     AND d.id = r.delivery_id
     AND d.lease_owner = $1
     AND d.attempt_count = r.attempts_before
     -- Batch rows first: evaluated once, before any delivery row is locked (see the lock order above).
     AND (SELECT count(*) FROM settled_batches) >= 0
  RETURNING d.id, d.app_id, d.message_id, d.endpoint_id, d.attempt_count, d.state, r.started_at, r.duration_ms,
            r.status_code, r.error_class, r.error_message, r.request_headers, r.response_headers, r.response_body,
            r.response_truncated
), written AS (
  -- First attempts: their rows are written here, once, with the result.
  INSERT INTO hookline.deliveries AS d
         (id, app_id, message_id, endpoint_id, event_type, state, attempt_count, next_attempt_at, claimable_at,
          last_attempt_at, last_status_code, last_error_class, last_duration_ms, created_at, updated_at)
  SELECT r.delivery_id, r.app_id, r.message_id, r.endpoint_id, r.event_type, r.state, 1,
         coalesce(r.next_attempt_at, r.started_at), r.next_attempt_at, r.started_at, r.status_code, r.error_class,
         r.duration_ms, r.created_at, now()
    FROM results AS r
   WHERE r.batch_id IS NOT NULL
     AND r.batch_id IN (SELECT id FROM held_batches)
     AND r.endpoint_id IN (SELECT id FROM live_endpoints)
     AND r.attempts_before = 0
     -- No row of its id yet. A scalar subquery, not NOT EXISTS: that became an anti join whose plan,
     -- made for one result (a kept plan sees no array's length), read a young partition's whole primary
     -- key for each result instead of probing it (a flush of 44 took 10 ms on PostgreSQL 15).
     AND (SELECT x.id FROM hookline.deliveries AS x WHERE x.id = r.delivery_id) IS NULL
     AND (SELECT count(*) FROM settled_batches) >= 0
  RETURNING d.id, d.app_id, d.message_id, d.endpoint_id, d.attempt_count, d.state, d.last_attempt_at AS started_at,
            d.last_duration_ms AS duration_ms, d.last_status_code AS status_code, d.last_error_class AS error_class
), recorded AS (
  -- The attempts this flush counts (the fence let their deliveries change): health and rollups read
  -- these, whether or not an attempt row is written for them. The result's own columns come back
  -- through the UPDATE's RETURNING: joining updated to results again was a nested loop over two CTEs
  -- (no index, hash joins off on this connection), n × n rows for a flush of n.
  SELECT u.app_id, u.id AS delivery_id, u.message_id, u.endpoint_id, u.attempt_count, u.started_at,
         u.duration_ms, u.status_code, u.error_class, u.error_message, u.request_headers, u.response_headers,
         u.response_body, u.response_truncated
    FROM updated AS u
  UNION ALL
  -- A first attempt's result columns the row does not keep, for its attempt row: read from the arrays
  -- at its position, only for those that get one.
  SELECT w.app_id, w.id, w.message_id, w.endpoint_id, w.attempt_count, w.started_at, w.duration_ms, w.status_code,
         w.error_class, p.error_message, p.request_headers, p.response_headers, p.response_body, p.response_truncated
    FROM written AS w
   CROSS JOIN LATERAL (
     SELECT ($9::text[])[i] AS error_message, ($10::jsonb[])[i] AS request_headers,
            ($11::jsonb[])[i] AS response_headers, ($12::text[])[i] AS response_body,
            ($13::bool[])[i] AS response_truncated
       FROM (SELECT CASE WHEN w.error_class IS NOT NULL OR $18::bool THEN array_position($2::uuid[], w.id) END AS i) AS at
   ) AS p
), inserted AS (
  INSERT INTO hookline.attempts
         (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at, duration_ms,
          status_code, error_class, error_message, request_headers, response_headers, response_body,
          response_truncated)
  SELECT hookline.new_id('atmpt', delivery_id), app_id, delivery_id, message_id, endpoint_id, attempt_count, $1, started_at, duration_ms,
         status_code, error_class, error_message, request_headers, response_headers, response_body,
         response_truncated
    FROM recorded
   WHERE error_class IS NOT NULL OR $18::bool
), last_success AS (
  SELECT endpoint_id, max(started_at) FILTER (WHERE error_class IS NULL) AS success_at
    FROM recorded
   GROUP BY endpoint_id
), health AS (
  -- Per endpoint: the failures after its last success in this batch continue (no success) or start
  -- (a success) its failure streak.
  SELECT i.endpoint_id, s.success_at,
         count(*) FILTER (WHERE i.error_class IS NOT NULL
                            AND i.started_at >= coalesce(s.success_at, '-infinity')) AS new_failures,
         min(i.started_at) FILTER (WHERE i.error_class IS NOT NULL
                                     AND i.started_at >= coalesce(s.success_at, '-infinity')) AS streak_start,
         max(i.started_at) FILTER (WHERE i.error_class IS NOT NULL) AS failure_at,
         (array_agg(i.error_class ORDER BY i.started_at DESC) FILTER (WHERE i.error_class IS NOT NULL))[1] AS error_class,
         coalesce(bool_or(i.status_code = 410), false) AS gone
    FROM recorded AS i
    JOIN last_success AS s USING (endpoint_id)
   GROUP BY i.endpoint_id, s.success_at
), endpoint_health AS (
  -- Counters, circuit breaker and auto-disable ($14-$17). Each is computed from the row as the UPDATE
  -- finds it (re-read after a concurrent flush of another worker changed it), never from a snapshot
  -- taken before.
  UPDATE hookline.endpoints AS e
     SET (consecutive_failures, circuit_state, circuit_backoff_ms, circuit_open_until) = (
           SELECT c.next_consecutive_failures, c.next_state, c.next_backoff_ms, c.next_open_until
             FROM hookline.circuit_after_attempts(e.circuit_state, e.consecutive_failures, e.circuit_backoff_ms,
                                                  e.circuit_open_until, h.new_failures, h.success_at IS NOT NULL,
                                                  $14, $15, $16) AS c),
         failing_since = CASE WHEN h.new_failures = 0 THEN NULL
                              WHEN h.success_at IS NULL THEN coalesce(e.failing_since, h.streak_start)
                              ELSE h.streak_start END,
         last_success_at = greatest(e.last_success_at, h.success_at),
         last_failure_at = greatest(e.last_failure_at, h.failure_at),
         last_error_class = CASE WHEN h.failure_at >= coalesce(e.last_failure_at, '-infinity') THEN h.error_class
                                 ELSE e.last_error_class END,
         (enabled, disabled_reason, disabled_at) = (
           SELECT d.next_enabled, d.next_reason, d.next_disabled_at
             FROM hookline.disabled_after_attempts(
                    e.enabled, e.disabled_reason, e.disabled_at,
                    (CASE WHEN h.success_at IS NULL THEN e.consecutive_failures ELSE 0 END + h.new_failures)::int,
                    coalesce(e.failing_since, h.streak_start), h.success_at IS NOT NULL,
                    CASE WHEN h.gone THEN h.failure_at END, $17) AS d),
         updated_at = now()
    FROM health AS h
   WHERE e.id = h.endpoint_id
     -- A healthy endpoint that only succeeded again changes nothing but last_success_at: that is
     -- written at most once a second. Every flush of every worker sending to one endpoint updated
     -- its row, so workers' flushes queued behind each other's row lock.
     AND NOT (h.failure_at IS NULL AND e.consecutive_failures = 0 AND e.failing_since IS NULL
              AND e.circuit_state = 'closed' AND e.circuit_open_until IS NULL AND e.circuit_backoff_ms IS NULL
              AND coalesce(e.last_success_at, '-infinity') >= h.success_at - interval '1 second')
  RETURNING e.id, e.circuit_state, e.enabled
), rollups AS (
  -- In this worker's shard ($20): workers never wait on each other's rollup rows (migration
  -- 20261124152000_rollup_shards).
  SELECT hookline.add_to_rollups($20::smallint, array_agg(started_at), array_agg(app_id), array_agg(endpoint_id),
                                 array_agg(duration_ms), array_agg(status_code), array_agg(error_class)) AS rows
    FROM recorded
)
SELECT (SELECT count(*) FROM recorded)::int AS recorded,
       (SELECT count(*) FILTER (WHERE state = 'succeeded') FROM (SELECT state FROM updated UNION ALL SELECT state FROM written) AS s)::int AS succeeded,
       (SELECT count(*) FILTER (WHERE state = 'dead') FROM (SELECT state FROM updated UNION ALL SELECT state FROM written) AS s)::int AS dead,
       (SELECT rows FROM rollups) AS rollup_rows,
       -- The results the fence refused, only when there are any (a CASE branch not taken runs nothing).
       CASE WHEN (SELECT count(*) FROM recorded) < cardinality($2::uuid[])
            THEN ARRAY(SELECT unnest($2::uuid[]) EXCEPT ALL SELECT delivery_id FROM recorded) END AS unrecorded,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'circuitState', circuit_state, 'enabled', enabled)), '[]')
          FROM endpoint_health) AS endpoints
