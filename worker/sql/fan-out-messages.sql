-- Parameters: $1 workerId, $2 messages, $3 room, $4 leaseSeconds, $5 cursorThrough,
--   $6 cursorPartialXid, $7 cursorPartialThroughId.
-- The last three: the cursor as the worker last saw it (worker/fan-out.ts); all NULL when it knows none yet.
-- Fans out the messages committed since the last fan-out into one delivery per enabled, subscribed
-- endpoint, outside any producer's transaction: the producer pays for its message row alone (no queue
-- row: migration 20261130090000_fanout_by_transaction), and its cost does not depend on how many
-- endpoints are subscribed.
-- Which messages are new: those not fanned out by hookline.fanout_cursor (its snapshot, and the one
-- transaction it took in part) whose producer's transaction is visible in this statement's snapshot,
-- through messages_written_by_idx (written_by, id); the invariant and its algebra are in
-- prisma/functions/fanout-snapshot.sql. At most $2 at a time, even from one transaction: first the
-- rest of the transaction taken in part, in id order, then the others in (written_by, id) order. A
-- transaction of 1,000,000 messages (a bulk UPDATE under a trigger, a backfill) is 1,000,000 / $2
-- fan-outs, each well inside the worker's 5 s statement timeout, and the transactions that committed
-- after it wait only while it is being taken, not forever (a fan-out of it whole timed out on every
-- try). Its rest comes first so that only one transaction is ever taken in part: one that began
-- before it and committed later (lower id) waits until it is done.
-- One more than $2 is read: whether it exists, and is of the last one's transaction, says whether
-- anything is left and whether the last transaction is taken in part (then it is the new partial_xid,
-- through its last id taken). The three index ranges skip the part of partial_xid taken before: a
-- fan-out never reads the messages it took earlier (the rest of a transaction of 1,000,000 is one
-- probe of the index, not a walk past the ones taken).
-- The cursor moves in the same statement as the deliveries are inserted, to exactly what was taken:
-- nothing is taken twice, nothing skipped (test/sql/fanout-snapshot.test.ts).
-- One fan-out at a time: the cursor row is locked, and a worker that finds it locked (SKIP LOCKED)
-- fans out nothing this turn; its claim still runs. The fan-outs of a drain follow each other without
-- waiting, each taking what committed before it began. The cursor is locked only if something is
-- new: an idle worker's poll (every 10 ms while it polls) reads the index and writes nothing.
-- The scans' bounds are the cursor the worker passed, as parameters. The connection that runs this
-- plans it once (worker/worker-connections.ts, TAKE_SETTINGS): each range is an index range walked in
-- order up to the LIMIT, whatever its size, so the plan made on an empty database holds behind any
-- backlog (when the bounds were read inside the statement, a backlog of 20,000 in one partition was
-- read whole and sorted for 256: test/worker/record-results-plan.test.ts checks both), and nothing
-- reads the cursor once per partition. Reading
-- it inside the statement, through STABLE functions the planner could evaluate, cost ~56 function
-- calls and ~5 ms of planning per fan-out over 16 time partitions (20k drain, PostgreSQL 18: 451 us
-- of CPU per delivery against 306 with a queue row). The cursor is locked only if it is still the
-- one passed, so what the ranges found is exactly what is new after it; a worker that passed an old
-- one (another worker moved it since) takes nothing and gets the current one back.
-- Up to $3 of the new deliveries whose endpoint's circuit is closed are leased to worker $1 and
-- returned, ready to send: a first attempt costs no separate claim. They are not inserted: a first
-- attempt's row is written once, with its outcome, by the worker's flush (record-results.sql) or
-- release (release-deliveries.sql) (migration 20261206090000_first_attempts_written_once; inserting it
-- here and updating it with the result cost 150 B of WAL per event). Until then its lease is one row
-- of hookline.fanout_batches for the whole fan-out (its messages are the cursor's step: fanned out
-- by the cursor after it, not by the one before; both are recorded whole, partial transaction and
-- all; and the endpoints it leased first attempts to), leased to worker $1 for $4 seconds. Once
-- every one of them is recorded or released, the worker's next flush or release deletes the batch
-- row (worker/leases.ts); if it dies first, the batch's lease runs out and
-- release-expired-batch-leases.sql writes their rows 'pending' for the claim queue.
-- The rest are inserted 'pending' (due now, or when the endpoint's open circuit ends) for any
-- worker's claim (worker/sql/claim-deliveries.sql). A fan-out that leased nothing writes no batch.
-- A message whose app or target endpoint no longer exists gets no delivery.
-- A delivery's id is hookline.delivery_id(message, endpoint) (prisma/functions/new-id.sql): the same
-- for the same pair whoever writes the row, here, a flush, or the release of an expired batch. It
-- carries its message's time: both land in the same time partition, and retention drops them together.
-- Crash cost: none. Before the commit, the cursor has not moved; after it, the batch's first attempts
-- come back when its lease runs out (their rows written then, under the same ids).
WITH ordered AS (
  -- The next $2 + 1 new messages after the cursor the worker passed: rank 0 the rest of the transaction
  -- taken in part, rank 1 the others.
  SELECT u.*, row_number() OVER (ORDER BY u.rank, u.written_by, u.id) AS n
    FROM ((SELECT 0 AS rank, m.written_by, m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id,
                  m.payload, m.traceparent, m.tracestate
             FROM hookline.messages AS m
            WHERE m.written_by = $6::xid8
              AND m.id > $7::uuid
            ORDER BY m.written_by, m.id
            LIMIT $2 + 1)
          UNION ALL
          (SELECT 1, m.written_by, m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id,
                  m.payload, m.traceparent, m.tracestate
             FROM hookline.messages AS m
            WHERE m.written_by >= pg_snapshot_xmin($5::pg_snapshot)
              AND m.written_by < coalesce($6::xid8, pg_snapshot_xmax(pg_current_snapshot()))
              AND pg_visible_in_snapshot(m.written_by, pg_current_snapshot())
              AND NOT pg_visible_in_snapshot(m.written_by, $5::pg_snapshot)
            ORDER BY m.written_by, m.id
            LIMIT $2 + 1)
          UNION ALL
          (SELECT 1, m.written_by, m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id,
                  m.payload, m.traceparent, m.tracestate
             FROM hookline.messages AS m
            WHERE m.written_by > $6::xid8
              -- True of every id when $6 is given; NULL (no partition) when it is not, which this
              -- branch's rows need anyway: the plan is kept for every call (TAKE_SETTINGS), and only a
              -- condition on the id lets it skip the time partitions when the call starts, as the
              -- first branch does by `m.id > $7`. Without it every fan-out with no transaction taken
              -- in part (every one, when producers write one message a transaction) set up and ended
              -- an index scan of every period for nothing.
              AND m.id >= CASE WHEN $6::xid8 IS NULL THEN NULL ELSE '00000000000000000000000000000000'::uuid END
              AND m.written_by < pg_snapshot_xmax(pg_current_snapshot())
              AND pg_visible_in_snapshot(m.written_by, pg_current_snapshot())
              AND NOT pg_visible_in_snapshot(m.written_by, $5::pg_snapshot)
            ORDER BY m.written_by, m.id
            LIMIT $2 + 1)) AS u
   ORDER BY u.rank, u.written_by, u.id
   LIMIT $2 + 1
), cursor_row AS (
  -- Locked only if something is new, and only if it is still the cursor passed: one that another
  -- fan-out moved since (committed before this statement began, or after it: FOR UPDATE in READ
  -- COMMITTED rechecks this condition on the newest version) is not taken, nor one another fan-out
  -- holds (SKIP LOCKED). The cursor only moves forward (fanout-snapshot.sql), so its value names
  -- its version.
  SELECT c.fanned_out_through AS after, c.partial_xid, c.partial_through_id
    FROM hookline.fanout_cursor AS c
   WHERE EXISTS (SELECT 1 FROM ordered)
     AND c.fanned_out_through::text = $5::pg_snapshot::text
     AND c.partial_xid IS NOT DISTINCT FROM $6::xid8
     AND c.partial_through_id IS NOT DISTINCT FROM $7::uuid
     FOR UPDATE SKIP LOCKED
), messages AS (
  SELECT o.id, o.app_id, o.event_type, o.created_at, o.target_endpoint_id, o.payload, o.traceparent, o.tracestate
    FROM ordered AS o
   WHERE o.n <= $2 AND EXISTS (SELECT 1 FROM cursor_row)
), step AS (
  -- The last message taken and the one after it: whether anything new is left (more), and whether it
  -- is of the last one's transaction (that one is then taken in part).
  SELECT last.rank, last.written_by AS xid, last.id,
         next.n IS NOT NULL AS more,
         coalesce(next.written_by = last.written_by, false) AS more_in_last
    FROM (SELECT * FROM ordered WHERE n <= $2 ORDER BY n DESC LIMIT 1) AS last
    LEFT JOIN (SELECT * FROM ordered WHERE n = $2 + 1) AS next ON true
), targets AS (
  -- hookline.endpoint_takes (prisma/functions/endpoint-takes.sql) as two joins, for the plan: every
  -- enabled endpoint of the app subscribed to the event type (none listed: all types)...
  SELECT m.id AS message_id, m.app_id, m.event_type, m.created_at, e.id AS endpoint_id,
         e.circuit_state, e.circuit_open_until, m.payload, m.traceparent, m.tracestate
    FROM messages AS m
    JOIN hookline.endpoints AS e ON e.app_id = m.app_id
   WHERE m.target_endpoint_id IS NULL
     AND e.enabled
     AND (cardinality(e.event_types) = 0 OR m.event_type = ANY (e.event_types))
  UNION ALL
  -- ...or the one endpoint a message is aimed at (hookline.http_post), found by primary key.
  SELECT m.id, m.app_id, m.event_type, m.created_at, e.id, e.circuit_state, e.circuit_open_until, m.payload,
         m.traceparent, m.tracestate
    FROM messages AS m
    JOIN hookline.endpoints AS e ON e.id = m.target_endpoint_id AND e.app_id = m.app_id
   WHERE e.enabled
), numbered AS (
  SELECT t.*,
         t.circuit_state = 'closed'
           AND row_number() OVER (PARTITION BY t.circuit_state = 'closed' ORDER BY t.message_id, t.endpoint_id) <= $3
           AS leased
    FROM targets AS t
), planned AS (
  -- Each delivery with its id, made here rather than by the INSERT so that the leased ones are
  -- returned from these rows, payload and all, with no join: the payload was read by the scan that
  -- found the message. Re-reading each message by id (a probe per message across every time
  -- partition) made the statement 0.7-1.2 ms slower at ~64 messages a fan-out (20k drains on
  -- PostgreSQL 18: 4.2 / 6.0 ms a call against 3.5 / 4.8), and a join to the messages CTE was a
  -- nested loop of n x n (hash and merge joins are off on the worker's connection). A payload stored
  -- out of line (over ~2 KB) travels as a pointer; smaller ones are copied into the sort above and
  -- into this CTE, once per target: a worker's first fan-out, sized for one endpoint a message, can
  -- carry 256 messages x every subscribed endpoint; later ones are sized to `room` (take-deliveries.ts).
  SELECT hookline.delivery_id(n.message_id, n.endpoint_id) AS id, n.*,
         CASE WHEN n.leased THEN now()
              WHEN n.circuit_state <> 'closed' THEN greatest(n.created_at, coalesce(n.circuit_open_until, now()))
              ELSE n.created_at END AS due_at
    FROM numbered AS n
), inserted AS (
  INSERT INTO hookline.deliveries AS d
         (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at, claimable_at, lease_owner,
          lease_expires_at, created_at, updated_at)
  SELECT id, app_id, message_id, endpoint_id, event_type,
         CASE WHEN leased THEN 'delivering' ELSE 'pending' END,
         due_at,
         CASE WHEN NOT leased THEN due_at END,
         CASE WHEN leased THEN $1 END,
         CASE WHEN leased THEN now() + make_interval(secs => $4) END,
         created_at, now()
    FROM planned
   WHERE NOT leased
   ORDER BY message_id, endpoint_id
  RETURNING d.id
), advanced AS (
  -- prisma/functions/fanout-snapshot.sql: everything new taken (the cursor is this snapshot); only part
  -- of the rest of partial_xid (the snapshot stays, the position moves); or partial_xid finished, then
  -- the others through the last one taken whole (one below the last one when that is taken in part).
  UPDATE hookline.fanout_cursor AS c
     SET fanned_out_through =
           CASE WHEN NOT step.more THEN pg_current_snapshot()
                WHEN step.rank = 0 AND step.more_in_last THEN cursor_row.after
                WHEN step.rank = 0 THEN hookline.fanout_snapshot_with(cursor_row.after, cursor_row.partial_xid)
                ELSE hookline.fanout_snapshot(hookline.fanout_snapshot_with(cursor_row.after, cursor_row.partial_xid),
                                              pg_current_snapshot(),
                                              CASE WHEN step.more_in_last THEN (step.xid::text::bigint - 1)::text::xid8
                                                   ELSE step.xid END)
           END,
         partial_xid = CASE WHEN step.more_in_last THEN step.xid END,
         partial_through_id = CASE WHEN step.more_in_last THEN step.id END
    FROM cursor_row, step
  RETURNING c.fanned_out_through AS through, c.partial_xid AS through_partial_xid,
            c.partial_through_id AS through_partial_id
), batch AS (
  -- The lease the leased first attempts run under: one row for the whole fan-out.
  INSERT INTO hookline.fanout_batches (after, after_partial_xid, after_partial_id, through, through_partial_xid,
                                       through_partial_id, lease_owner, lease_expires_at, endpoint_ids)
  SELECT cursor_row.after, cursor_row.partial_xid, cursor_row.partial_through_id, advanced.through,
         advanced.through_partial_xid, advanced.through_partial_id, $1, now() + make_interval(secs => $4),
         ARRAY(SELECT DISTINCT endpoint_id FROM numbered WHERE leased)
    FROM cursor_row, advanced
   WHERE EXISTS (SELECT 1 FROM numbered WHERE leased)
  RETURNING id
)
-- One row per leased delivery, each carrying the counts and its batch; a single row with a NULL id
-- when none was leased, so the worker always learns how many messages it took, how many deliveries
-- they made, and the cursor to pass next time: the one it moved, or else the one this statement's
-- snapshot sees. cursor_moved: the cursor passed was not that one (another worker's fan-out moved
-- it, or the worker knew none yet), so nothing was taken; worth another try at once with the new one.
-- cursor_busy: new messages waited but another fan-out held the cursor; worth another try soon.
SELECT leased.*, counts.*
  FROM (SELECT (SELECT count(*) FROM messages)::int AS messages_taken,
               (SELECT count(*) FROM planned)::int AS deliveries_created,
               (SELECT id FROM batch) AS batch_id,
               cursor.through::text AS cursor_through,
               cursor.partial_xid::text AS cursor_partial_xid,
               cursor.partial_through_id AS cursor_partial_through_id,
               NOT EXISTS (SELECT 1 FROM advanced)
                 AND (cursor.through::text IS DISTINCT FROM $5::pg_snapshot::text
                      OR cursor.partial_xid IS DISTINCT FROM $6::xid8
                      OR cursor.partial_through_id IS DISTINCT FROM $7::uuid) AS cursor_moved,
               EXISTS (SELECT 1 FROM ordered) AND NOT EXISTS (SELECT 1 FROM cursor_row) AS cursor_busy
          FROM (SELECT through, through_partial_xid AS partial_xid, through_partial_id AS partial_through_id
                  FROM advanced
                UNION ALL
                SELECT c.fanned_out_through, c.partial_xid, c.partial_through_id
                  FROM hookline.fanout_cursor AS c
                 WHERE NOT EXISTS (SELECT 1 FROM advanced)) AS cursor) AS counts
  LEFT JOIN (
    SELECT p.id, p.app_id, p.endpoint_id, p.message_id, 0 AS attempt_count,
           p.event_type, p.created_at, p.payload::text AS payload, p.traceparent, p.tracestate,
           true AS endpoint_enabled, 'closed' AS circuit_state, NULL::timestamptz AS circuit_open_until
      FROM planned AS p
     WHERE p.leased
  ) AS leased ON true
