-- Parameters: $1 appId, $2 match, $3 afterId, $4 asOf, $5 limit.
-- Ids in $2 and the cursor ($3, last_id) are public ones (the job's JSON); hookline.uuid_of(kind, id)
-- reads them as the count did (lib/database/ids.ts), NULL for an id of no delivery or message, which
-- matches no row.
-- One batch of a replay or recover job: the next $5 deliveries of app $1 after cursor $3 (keyset on
-- the primary key) that match $2 and existed when the job was created ($4), put back to pending, due
-- now: exactly what lib/domain/deliveries/replay-deliveries.ts does to the rows countReplayable counted for
-- the job's total. $2 is that count's filter as JSON (worker/jobs/job-filter.ts builds it from the
-- same DeliveryFilter): every key is optional, and `states` holds the public states (waiting and
-- retrying are pending split on attempt_count, lib/domain/deliveries/delivery-states.ts), and `payload`
-- a payload search's conditions on the delivery's message.
-- Rows a worker is delivering are not touched (state <> 'delivering'): their worker holds the lease
-- and records the outcome, as the synchronous replay always did. FOR UPDATE (not SKIP LOCKED: a
-- skipped row would be passed by the cursor and never replayed) waits for a claim or a flush holding
-- a row, then re-checks these conditions on its new version, so a row claimed meanwhile is left to
-- its worker and the cursor still passes it.
-- Cost: a batch of 2,000 is one short transaction (tens of ms); a million-row replay is 500 of them,
-- with the claim and the flushes running in between instead of waiting behind one long UPDATE.
-- Keyset on the primary key reads the app's rows in id order (ids start with their creation time);
-- a very selective filter over a large app reads many non-matching rows per batch, which costs time,
-- not locks.
WITH batch AS (
  SELECT d.id
    FROM hookline.deliveries AS d
   WHERE d.app_id = $1
     AND d.id > coalesce(hookline.uuid_of('dlv', $3), '00000000000000000000000000000000')
     AND d.created_at <= $4
     AND d.state <> 'delivering'
     AND ($2::jsonb ->> 'endpointId' IS NULL OR d.endpoint_id = $2::jsonb ->> 'endpointId')
     AND ($2::jsonb ->> 'eventType' IS NULL OR d.event_type = $2::jsonb ->> 'eventType')
     AND ($2::jsonb ->> 'id' IS NULL OR d.id = hookline.uuid_of('dlv', $2::jsonb ->> 'id'))
     -- A message's deliveries are its range of the primary key (prisma/functions/deliveries-of-message.sql).
     AND ($2::jsonb ->> 'messageId' IS NULL OR (d.message_id = hookline.uuid_of('msg', $2::jsonb ->> 'messageId')
                                                AND d.id >= hookline.delivery_ids_from(hookline.uuid_of('msg', $2::jsonb ->> 'messageId'))
                                                AND d.id < hookline.delivery_ids_before(hookline.uuid_of('msg', $2::jsonb ->> 'messageId'))))
     AND ($2::jsonb ->> 'errorClass' IS NULL OR d.last_error_class = $2::jsonb ->> 'errorClass')
     AND ($2::jsonb ->> 'statusCode' IS NULL OR d.last_status_code = ($2::jsonb ->> 'statusCode')::int)
     AND ($2::jsonb ->> 'attemptCount' IS NULL OR d.attempt_count = ($2::jsonb ->> 'attemptCount')::int)
     AND ($2::jsonb ->> 'minAttempts' IS NULL OR d.attempt_count >= ($2::jsonb ->> 'minAttempts')::int)
     AND ($2::jsonb ->> 'from' IS NULL OR d.created_at >= ($2::jsonb ->> 'from')::timestamptz)
     AND ($2::jsonb ->> 'to' IS NULL OR d.created_at < ($2::jsonb ->> 'to')::timestamptz)
     AND ($2::jsonb ->> 'idempotencyKey' IS NULL OR EXISTS (
           SELECT 1 FROM hookline.idempotency_keys AS k
            WHERE k.app_id = $1 AND k.idempotency_key = $2::jsonb ->> 'idempotencyKey'
              AND d.message_id = k.message_id
              AND d.id >= hookline.delivery_ids_from(k.message_id)
              AND d.id < hookline.delivery_ids_before(k.message_id)))
     AND ($2::jsonb -> 'states' IS NULL OR
          CASE WHEN d.state <> 'pending' THEN d.state
               WHEN d.attempt_count > 0 THEN 'retrying'
               ELSE 'waiting' END IN (SELECT jsonb_array_elements_text($2::jsonb -> 'states')))
     -- A payload search (worker/jobs/job-filter.ts): the conditions of lib/domain/search/payload-condition.ts
     -- on the delivery's message, one primary-key probe per row the other keys kept; with a search,
     -- from and to bound the message's time (as the list's search does), not the delivery's.
     AND ($2::jsonb -> 'payload' IS NULL OR EXISTS (
           SELECT 1 FROM hookline.messages AS m
            WHERE m.id = d.message_id AND m.app_id = $1
              AND ($2::jsonb #>> '{payload,search}' IS NULL
                   OR strpos(lower(m.payload::text), lower($2::jsonb #>> '{payload,search}')) > 0)
              AND ($2::jsonb #>> '{payload,equals}' IS NULL
                   OR m.payload #> ARRAY(SELECT jsonb_array_elements_text($2::jsonb #> '{payload,path}'))
                      = ($2::jsonb #>> '{payload,equals}')::jsonb)
              AND ($2::jsonb #>> '{payload,from}' IS NULL OR m.created_at >= ($2::jsonb #>> '{payload,from}')::timestamptz)
              AND ($2::jsonb #>> '{payload,to}' IS NULL OR m.created_at < ($2::jsonb #>> '{payload,to}')::timestamptz)
              AND ($2::jsonb #>> '{payload,contains}' IS NULL
                   OR strpos(lower(m.payload #>> ARRAY(SELECT jsonb_array_elements_text($2::jsonb #> '{payload,path}'))),
                             lower($2::jsonb #>> '{payload,contains}')) > 0)))
   ORDER BY d.id
   LIMIT $5
     FOR UPDATE
), kept AS (
  -- A succeeded delivery's success, kept on its row alone, becomes an attempt row before the replay
  -- resets that row (lib/domain/deliveries/keep-replayed-successes.ts does the same for the synchronous
  -- replays). Every part of this statement reads the rows as they were before the UPDATE below.
  INSERT INTO hookline.attempts
         (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id, started_at, duration_ms,
          status_code, request_headers)
  SELECT hookline.new_id('atmpt', d.id), d.app_id, d.id, d.message_id, d.endpoint_id, d.attempt_count, 'delivery-row', d.last_attempt_at,
         coalesce(d.last_duration_ms, 0), d.last_status_code, '{}'::jsonb
    FROM hookline.deliveries AS d JOIN batch ON batch.id = d.id
   WHERE d.state = 'succeeded' AND d.last_attempt_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM hookline.attempts AS a
                      WHERE a.delivery_id = d.id AND a.attempt_number = d.attempt_count)
  -- (A data-modifying WITH runs to completion whether or not the final SELECT reads it.)
  RETURNING 1
), replayed AS (
  UPDATE hookline.deliveries AS d
     SET state = 'pending',
         next_attempt_at = now(),
         claimable_at = now(),
         lease_owner = NULL,
         lease_expires_at = NULL,
         updated_at = now()
    FROM batch
   WHERE d.id = batch.id
  RETURNING d.id
)
SELECT (SELECT count(*) FROM batch)::int AS scanned,
       (SELECT count(*) FROM replayed)::int AS changed,
       -- (uuid has no max() aggregate)
       (SELECT hookline.public_id('dlv', id) FROM batch ORDER BY id DESC LIMIT 1) AS last_id
