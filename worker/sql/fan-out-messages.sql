-- Parameters: $1 workerId, $2 messages, $3 room, $4 leaseSeconds.
-- Fans out up to $2 queued messages (hookline.fanout_queue, written by hookline.send and
-- hookline.http_post in the producer's transaction) into one delivery per enabled, subscribed
-- endpoint, outside any producer's transaction: the producer's cost does not depend on how many
-- endpoints are subscribed.
-- Up to $3 of the new deliveries whose endpoint's circuit is closed are inserted already leased to
-- worker $1 and returned, ready to send: a first attempt costs no separate claim. They run under their
-- message's queue row, which this statement leases to worker $1 for $4 seconds instead of deleting it
-- (migration 20261124110000_hot_first_attempts): the deliveries themselves stay out of the claim index
-- (claimable_at NULL), so recording a success changes no indexed column and is a HOT update. The worker
-- deletes the queue row when it records the last of them (record-results.sql); if it dies first, the
-- row's lease runs out and release-expired-message-leases.sql gives them to the claim queue.
-- The rest are inserted 'pending' (due now, or when the endpoint's open circuit ends) for any
-- worker's claim (worker/sql/claim-deliveries.sql); a message none of whose deliveries was leased
-- leaves the queue here.
-- SKIP LOCKED: workers fan out disjoint messages concurrently, oldest first (ids sort by time); rows
-- leased to another worker are skipped, and are at most what workers are sending right now.
-- A message whose app or target endpoint no longer exists gets no delivery; its queue row goes.
-- A delivery's id carries its message's time (hookline.new_id(prefix, sibling)): both land in the same
-- time partition, and retention drops them together.
-- Crash cost: none. Before the commit, the messages stay queued; after it, the leased queue rows come
-- back with their deliveries when the lease runs out.
WITH taken AS (
  SELECT message_id
    FROM hookline.fanout_queue
   WHERE lease_owner IS NULL
   ORDER BY message_id
   LIMIT $2
     FOR UPDATE SKIP LOCKED
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
         (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at, claimable_at, lease_owner,
          lease_expires_at, created_at, updated_at)
  SELECT hookline.new_id('dlv', message_id), app_id, message_id, endpoint_id, event_type,
         CASE WHEN leased THEN 'delivering' ELSE 'pending' END,
         due_at,
         CASE WHEN NOT leased THEN due_at END,
         CASE WHEN leased THEN $1 END,
         CASE WHEN leased THEN now() + make_interval(secs => $4) END,
         created_at, now()
    FROM (SELECT numbered.*,
                 CASE WHEN leased THEN now()
                      WHEN circuit_state <> 'closed' THEN greatest(created_at, coalesce(circuit_open_until, now()))
                      ELSE created_at END AS due_at
            FROM numbered) AS planned
   ORDER BY message_id, endpoint_id
  RETURNING d.id, d.app_id, d.endpoint_id, d.message_id, d.attempt_count, d.state
), leased_messages AS (
  -- The queue rows the leased deliveries run under: leased, not deleted, until they are recorded.
  UPDATE hookline.fanout_queue AS q
     SET lease_owner = $1,
         lease_expires_at = now() + make_interval(secs => $4)
   WHERE q.message_id IN (SELECT message_id FROM numbered WHERE leased)
  RETURNING q.message_id
), done_messages AS (
  -- Messages with nothing leased (no target, or every delivery went to the claim queue) are done.
  DELETE FROM hookline.fanout_queue AS q
   WHERE q.message_id IN (SELECT message_id FROM taken EXCEPT SELECT message_id FROM numbered WHERE leased)
  RETURNING q.message_id
)
-- One row per leased delivery, each carrying the counts; a single row with a NULL id when none was
-- leased, so the worker always learns how many messages it took and how many deliveries they made.
SELECT leased.*, counts.messages_taken, counts.deliveries_created
  FROM (SELECT (SELECT count(*) FROM taken)::int AS messages_taken,
               (SELECT count(*) FROM inserted)::int AS deliveries_created) AS counts
  LEFT JOIN (
    SELECT i.id, i.app_id, i.endpoint_id, i.message_id, i.attempt_count,
           m.event_type, m.created_at, m.payload::text AS payload, m.traceparent, m.tracestate,
           true AS endpoint_enabled, 'closed' AS circuit_state, NULL::timestamptz AS circuit_open_until
      FROM inserted AS i
      JOIN hookline.messages AS m ON m.id = i.message_id
     WHERE i.state = 'delivering'
  ) AS leased ON true
