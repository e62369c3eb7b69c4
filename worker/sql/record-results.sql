-- Writes back a batch of finished attempts in one round trip: the deliveries' new states, one
-- attempt row each, and the per-minute rollups the dashboard reads.
-- Fenced: a row changes only if it is still 'delivering' and leased to this worker ($1). A worker
-- that froze past its lease and wakes up late changes nothing, and its attempts are not recorded,
-- because another worker has taken the delivery over.
-- Crash cost: results buffered in memory and not yet written here are lost; their deliveries stay
-- leased and are delivered again after the lease (at-least-once, same webhook-id and body).
WITH results AS (
  SELECT *
    FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::float8[], $7::int[],
                $8::text[], $9::text[], $10::jsonb[], $11::jsonb[], $12::text[], $13::bool[])
      AS r(delivery_id, state, next_attempt_at, started_at, duration_ms, status_code,
           error_class, error_message, request_headers, response_headers, response_body, response_truncated)
), updated AS (
  UPDATE hookline.deliveries AS d
     SET state = r.state,
         attempt_count = d.attempt_count + 1,
         next_attempt_at = coalesce(r.next_attempt_at, d.next_attempt_at),
         lease_owner = NULL,
         lease_expires_at = NULL,
         last_attempt_at = r.started_at,
         last_status_code = r.status_code,
         last_error_class = r.error_class,
         updated_at = now()
    FROM results AS r
   WHERE d.id = r.delivery_id
     AND d.state = 'delivering'
     AND d.lease_owner = $1
  RETURNING d.id, d.app_id, d.message_id, d.endpoint_id, d.attempt_count
), inserted AS (
  INSERT INTO hookline.attempts
         (app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at, duration_ms,
          status_code, error_class, error_message, request_headers, response_headers, response_body,
          response_truncated)
  SELECT u.app_id, u.id, u.message_id, u.endpoint_id, u.attempt_count, $1, r.started_at, r.duration_ms,
         r.status_code, r.error_class, r.error_message, r.request_headers, r.response_headers, r.response_body,
         r.response_truncated
    FROM updated AS u
    JOIN results AS r ON r.delivery_id = u.id
  RETURNING app_id, endpoint_id, started_at, duration_ms, status_code, error_class
), per_bucket AS (
  SELECT date_trunc('minute', started_at) AS minute, app_id, endpoint_id,
         CASE WHEN error_class IS NULL THEN 'succeeded' ELSE 'failed' END AS outcome,
         coalesce(error_class, '') AS error_class, coalesce(status_code, 0) AS status_code,
         width_bucket(duration_ms, hookline.latency_bucket_bounds_ms()) AS bucket,
         count(*) AS attempts, sum(duration_ms) AS duration_ms_sum
    FROM inserted
   GROUP BY 1, 2, 3, 4, 5, 6, 7
), per_key AS (
  SELECT minute, app_id, endpoint_id, outcome, error_class, status_code,
         sum(attempts) AS attempts, sum(duration_ms_sum) AS duration_ms_sum,
         jsonb_object_agg(bucket::text, attempts) AS histogram
    FROM per_bucket
   GROUP BY 1, 2, 3, 4, 5, 6
), rolled_up AS (
  INSERT INTO hookline.stats_minutely AS s
         (minute, app_id, endpoint_id, outcome, error_class, status_code, attempts, duration_ms_sum, latency_buckets)
  SELECT minute, app_id, endpoint_id, outcome, error_class, status_code, attempts, duration_ms_sum,
         ARRAY(SELECT coalesce((histogram ->> i::text)::bigint, 0)
                 FROM generate_series(0, cardinality(hookline.latency_bucket_bounds_ms())) AS i
                ORDER BY i)
    FROM per_key
   -- A fixed lock order, so two workers upserting the same minutes cannot deadlock.
   ORDER BY minute, app_id, endpoint_id, outcome, error_class, status_code
  ON CONFLICT (minute, app_id, endpoint_id, outcome, error_class, status_code) DO UPDATE
     SET attempts = s.attempts + excluded.attempts,
         duration_ms_sum = s.duration_ms_sum + excluded.duration_ms_sum,
         latency_buckets = ARRAY(SELECT a + b
                                   FROM unnest(s.latency_buckets, excluded.latency_buckets)
                                        WITH ORDINALITY AS t(a, b, i)
                                  ORDER BY i)
  RETURNING 1
)
SELECT (SELECT count(*) FROM updated)::int AS recorded,
       (SELECT count(*) FROM rolled_up)::int AS rollup_rows
