-- Parameters: $1 appId, $2 endpointId, $3 since, $4 asOf, $5 cursor, $6 limit.
-- One batch of a backfill job: deliveries to endpoint $2 for the next messages of app $1 created
-- since $3 and before the job ($4), after cursor $5 ({id}: id order, the app's part of messages_pkey;
-- an id begins with its millisecond, never earlier than its created_at), that the
-- endpoint subscribes to and has no delivery for, up to the first message not yet fanned out (not
-- fanned out by hookline.fanout_cursor: hookline.fanned_out, prisma/functions/fanout-snapshot.sql).
-- That one and those after it wait for their fan-out (waits_for_fan_out: the runner tries again
-- shortly), then are looked at again: skipped instead, as "its fan-out will read the endpoints and
-- give this endpoint its delivery", one was lost whenever a fan-out already running had read the
-- endpoints before this one was created; it committed after this batch had moved past the message,
-- with no delivery for it (test/sql/fanout-snapshot.test.ts). Looked at once fanned out, it has its
-- delivery from that fan-out or gets it here. The cursor moves in the transaction that inserts the
-- deliveries.
-- Exact, message by message, for a transaction the fan-out took in part: counting its taken messages
-- as not fanned out would skip them here although their fan-out ran before the endpoint existed, and
-- they would never get this endpoint's delivery; counting its rest as fanned out would give them two.
-- Order: claims take the oldest claimable_at first (claim-deliveries.sql), so each new delivery is
-- due one microsecond after the one before it, continuing after the last batch's (the cursor's
-- lastDue), never before now: the claim queue hands them out in message id order (their milliseconds).
-- Pace: at most $6 of the endpoint's deliveries wait in the claim queue at once (room). A batch only
-- fills the room the endpoint's workers freed by sending, so a backfill of a million messages moves
-- at the endpoint's speed (its max concurrency and rate limit) instead of flooding the queue ahead
-- of every other endpoint's work. Room 0 inserts nothing and the runner waits.
WITH endpoint AS (
  SELECT e.id, e.event_types FROM hookline.endpoints AS e WHERE e.id = $2 AND e.app_id = $1
), room AS (
  SELECT greatest(0, $6 - (SELECT count(*) FROM (
           SELECT 1 FROM hookline.deliveries AS d
            WHERE d.endpoint_id = $2 AND d.claimable_at IS NOT NULL
            LIMIT $6) AS queued))::int AS n
), candidates AS (
  SELECT m.id, m.event_type, m.created_at,
         NOT EXISTS (SELECT 1 FROM hookline.fanout_cursor AS c
                      WHERE m.written_by IS NOT NULL
                        AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid,
                                                    c.partial_through_id)) AS fanned_out
    FROM hookline.messages AS m, endpoint AS e
   WHERE m.app_id = $1
     AND m.id >= hookline.id_at('', $3)::uuid
     -- A cursor written before migration 20261207090000_messages_keyed_by_app ordered by (createdAt, id):
     -- it goes on from its createdAt's millisecond, whose messages already given their delivery are
     -- skipped below (fresh).
     -- The cursor's id is public (the job's JSON); hookline.uuid_of reads it.
     AND m.id > CASE WHEN $5::jsonb ? 'createdAt' THEN hookline.id_at('', ($5::jsonb ->> 'createdAt')::timestamptz)::uuid
                     ELSE coalesce(hookline.uuid_of('msg', $5::jsonb ->> 'id'), '00000000000000000000000000000000') END
     AND m.created_at >= $3
     AND m.created_at <= $4
     AND m.target_endpoint_id IS NULL
     AND (cardinality(e.event_types) = 0 OR m.event_type = ANY (e.event_types))
   ORDER BY m.id
   LIMIT (SELECT n FROM room)
), batch AS (
  -- Up to the first not yet fanned out.
  SELECT c.id, c.event_type, c.created_at
    FROM candidates AS c
   WHERE NOT EXISTS (SELECT 1 FROM candidates AS w
                      WHERE NOT w.fanned_out AND w.id <= c.id)
), fresh AS (
  SELECT b.*, row_number() OVER (ORDER BY b.id) AS rank
    FROM batch AS b
   -- The message's range of deliveries_pkey (prisma/functions/deliveries-of-message.sql). OFFSET 0 keeps
   -- it a probe per message: as an anti-join, a range known only per row is priced at 0.5 % of a
   -- partition, and hashing the whole partition looked cheaper.
   WHERE NOT EXISTS (SELECT 1 FROM hookline.deliveries AS d
                      WHERE d.message_id = b.id
                        AND d.id >= hookline.delivery_ids_from(b.id)
                        AND d.id < hookline.delivery_ids_before(b.id)
                        AND d.endpoint_id = $2
                     OFFSET 0)
), inserted AS (
  INSERT INTO hookline.deliveries AS d
         (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at, claimable_at, created_at, updated_at)
  SELECT hookline.new_uuid(f.id), $1, f.id, $2, f.event_type, 'pending', f.due, f.due, now(), now()
    FROM (SELECT fresh.*,
                 greatest(now(), coalesce(($5::jsonb ->> 'lastDue')::timestamptz, now()))
                   + make_interval(secs => rank / 1e6) AS due
            FROM fresh) AS f
  RETURNING d.claimable_at
), last AS (
  SELECT id FROM batch ORDER BY id DESC LIMIT 1
)
SELECT (SELECT count(*) FROM endpoint)::int AS endpoints,
       (SELECT n FROM room) AS room,
       (SELECT count(*) FROM batch)::int AS scanned,
       EXISTS (SELECT 1 FROM candidates WHERE NOT fanned_out) AS waits_for_fan_out,
       (SELECT count(*) FROM inserted)::int AS changed,
       (SELECT jsonb_build_object(
                 'id', hookline.public_id('msg', last.id),
                 'lastDue', coalesce((SELECT max(claimable_at) FROM inserted),
                                     ($5::jsonb ->> 'lastDue')::timestamptz))
          FROM last) AS cursor
