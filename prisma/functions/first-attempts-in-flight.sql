-- The first attempts being sent now of some of an app's messages: deliveries that have no row yet.
-- A fan-out leases a message's first attempts to its worker under one fan-out batch row, and their
-- rows are written once, with their outcome (migration 20261206090000_first_attempts_written_once;
-- worker/sql/fan-out-messages.sql). Until then a message's deliveries list, its delivery's page and
-- the API would not know of them, though the live queue counts them (hookline.unfinished_deliveries'
-- second part, which this restates for a few messages). A message has one while a batch row holds
-- it (fanned out by the batch's `through` cursor and not by its `after` one: hookline.fanned_out), one
-- of the batch's leased endpoints takes it, and no row of its delivery's id exists. Read in one
-- statement, so one snapshot: a flush writes the rows before the batch row goes, and a release of an
-- expired lease writes them in the statement that deletes it, so a pair is either here or in
-- hookline.deliveries, never in neither. The endpoint's subscription is read as it is now, as the
-- live queue reads it: one changed since the fan-out may show or hide a pair until its batch ends.
-- The ids are those the rows will have (hookline.delivery_id), stored ids as the rows' are (uuid:
-- lib/database/ids.ts makes them public); created_at is the message's, as the written row's will be.
CREATE OR REPLACE FUNCTION hookline.first_attempts_in_flight(app_id text, message_ids uuid[])
RETURNS TABLE (id uuid, message_id uuid, endpoint_id text, event_type text, created_at timestamptz,
               lease_owner text, lease_expires_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT hookline.delivery_id(m.id, e.id), m.id, e.id, m.event_type, m.created_at, b.lease_owner,
         b.lease_expires_at
    FROM hookline.messages AS m
    JOIN hookline.fanout_batches AS b
      ON hookline.fanned_out(m.written_by, m.id, b.through, b.through_partial_xid, b.through_partial_id)
     AND NOT hookline.fanned_out(m.written_by, m.id, b.after, b.after_partial_xid, b.after_partial_id)
    JOIN hookline.endpoints AS e
      ON e.id = ANY (b.endpoint_ids) AND e.app_id = m.app_id
     AND hookline.endpoint_takes(e.id, e.event_types, m.event_type, m.target_endpoint_id)
   WHERE m.app_id = first_attempts_in_flight.app_id
     AND m.id = ANY (first_attempts_in_flight.message_ids)
     AND m.written_by IS NOT NULL
     -- A probe by primary key, as the live queue's (hookline.unfinished_deliveries).
     AND (SELECT d.id FROM hookline.deliveries AS d WHERE d.id = hookline.delivery_id(m.id, e.id)) IS NULL
$$;

-- The same for one endpoint of the app: its first attempts in flight, whatever their messages. A batch
-- names the endpoints it leased first attempts to; its messages are the range of
-- messages_written_by_idx between its two cursors, as hookline.unfinished_deliveries reads them.
CREATE OR REPLACE FUNCTION hookline.first_attempts_in_flight_to(app_id text, endpoint_id text)
RETURNS TABLE (id uuid, message_id uuid, endpoint_id text, event_type text, created_at timestamptz,
               lease_owner text, lease_expires_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT hookline.delivery_id(m.id, e.id), m.id, e.id, m.event_type, m.created_at, b.lease_owner,
         b.lease_expires_at
    FROM hookline.endpoints AS e
    JOIN hookline.fanout_batches AS b ON e.id = ANY (b.endpoint_ids)
    JOIN hookline.messages AS m
      ON m.written_by >= pg_snapshot_xmin(b.after) AND m.written_by <= pg_snapshot_xmax(b.through)
     AND hookline.fanned_out(m.written_by, m.id, b.through, b.through_partial_xid, b.through_partial_id)
     AND NOT hookline.fanned_out(m.written_by, m.id, b.after, b.after_partial_xid, b.after_partial_id)
   WHERE e.id = first_attempts_in_flight_to.endpoint_id
     AND e.app_id = first_attempts_in_flight_to.app_id
     AND m.app_id = e.app_id
     AND hookline.endpoint_takes(e.id, e.event_types, m.event_type, m.target_endpoint_id)
     AND (SELECT d.id FROM hookline.deliveries AS d WHERE d.id = hookline.delivery_id(m.id, e.id)) IS NULL
$$;
