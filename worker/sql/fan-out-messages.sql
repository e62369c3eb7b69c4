-- Fans out up to $2 queued messages (hookline.fanout_queue, written by hookline.send and
-- hookline.http_post in the producer's transaction) into one delivery per enabled, subscribed
-- endpoint, outside any producer's transaction: the producer's cost does not depend on how many
-- endpoints are subscribed.
-- Up to $3 of the new deliveries whose endpoint's circuit is closed are inserted already leased to
-- worker $1 for $4 seconds and returned, ready to send: a first attempt costs no separate claim (one
-- row version fewer per delivery in every index). The rest are inserted 'pending' (due now, or when
-- the endpoint's open circuit ends) for any worker's claim (worker/sql/claim-deliveries.sql).
-- SKIP LOCKED: workers fan out disjoint messages concurrently, oldest first (ids sort by time).
-- A message whose app or target endpoint no longer exists gets no delivery; its queue row goes.
-- Crash cost: none. The queue rows are deleted in the transaction that inserts their deliveries, so a
-- crash before the commit leaves the messages queued, and one after it leaves leased deliveries that
-- come back when the lease runs out.
WITH taken AS (
  DELETE FROM hookline.fanout_queue AS q
   USING (SELECT message_id
            FROM hookline.fanout_queue
           ORDER BY message_id
           LIMIT $2
             FOR UPDATE SKIP LOCKED) AS due
   WHERE q.message_id = due.message_id
  RETURNING q.message_id
), messages AS (
  SELECT m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id
    FROM taken
    JOIN hookline.messages AS m ON m.id = taken.message_id
), targets AS (
  -- Every enabled endpoint of the app subscribed to the event type (none listed: all types)...
  SELECT m.id AS message_id, m.app_id, m.event_type, m.created_at, e.id AS endpoint_id,
         e.circuit_state, e.circuit_open_until
    FROM messages AS m
    JOIN hookline.endpoints AS e ON e.app_id = m.app_id
   WHERE m.target_endpoint_id IS NULL
     AND e.enabled
     AND (cardinality(e.event_types) = 0 OR m.event_type = ANY (e.event_types))
  UNION ALL
  -- ...or the one endpoint a message is aimed at (hookline.http_post), found by primary key.
  SELECT m.id, m.app_id, m.event_type, m.created_at, e.id, e.circuit_state, e.circuit_open_until
    FROM messages AS m
    JOIN hookline.endpoints AS e ON e.id = m.target_endpoint_id AND e.app_id = m.app_id
   WHERE e.enabled
), numbered AS (
  SELECT t.*,
         t.circuit_state = 'closed'
           AND row_number() OVER (PARTITION BY t.circuit_state = 'closed' ORDER BY t.message_id, t.endpoint_id) <= $3
           AS leased
    FROM targets AS t
), inserted AS (
  INSERT INTO hookline.deliveries AS d
         (app_id, message_id, endpoint_id, event_type, state, next_attempt_at, lease_owner, lease_expires_at,
          created_at, updated_at)
  SELECT app_id, message_id, endpoint_id, event_type,
         CASE WHEN leased THEN 'delivering' ELSE 'pending' END,
         CASE WHEN leased THEN now() + make_interval(secs => $4)
              WHEN circuit_state <> 'closed' THEN greatest(created_at, coalesce(circuit_open_until, now()))
              ELSE created_at END,
         CASE WHEN leased THEN $1 END,
         CASE WHEN leased THEN now() + make_interval(secs => $4) END,
         created_at, now()
    FROM numbered
   ORDER BY message_id, endpoint_id
  RETURNING d.id, d.app_id, d.endpoint_id, d.message_id, d.attempt_count, d.state
)
-- One row per leased delivery, each carrying the counts; a single row with a NULL id when none was
-- leased, so the worker always learns how many messages it took and how many deliveries they made.
SELECT leased.*, counts.messages_taken, counts.deliveries_created
  FROM (SELECT (SELECT count(*) FROM taken)::int AS messages_taken,
               (SELECT count(*) FROM inserted)::int AS deliveries_created) AS counts
  LEFT JOIN (
    SELECT i.id, i.app_id, i.endpoint_id, i.message_id, i.attempt_count,
           m.event_type, m.created_at, m.payload::text AS payload,
           true AS endpoint_enabled, 'closed' AS circuit_state, NULL::timestamptz AS circuit_open_until
      FROM inserted AS i
      JOIN hookline.messages AS m ON m.id = i.message_id
     WHERE i.state = 'delivering'
  ) AS leased ON true
