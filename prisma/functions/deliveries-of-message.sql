-- Where a message's deliveries are: the range of delivery ids [hookline.delivery_ids_from(message_id),
-- hookline.delivery_ids_before(message_id)), which every lookup of deliveries by message_id states
-- beside it (migration 20261201090000_deliveries_by_message_through_id dropped the index on
-- message_id). The range is the message's millisecond: a delivery's id starts with its message's 12
-- hex digits of milliseconds (hookline.delivery_id, hookline.new_uuid(sibling)), so the range is one partition and a
-- few entries of deliveries_pkey. A message of the legacy partition's time (before
-- hookline.legacy_ids_end(), which that migration wrote: '000000000000' unless the legacy partition
-- holds deliveries written before time partitions) may have deliveries with ids of their own time
-- anywhere in the legacy partition: its range is all of it, where an index on message_id finds them.
-- IMMUTABLE, as hookline.legacy_ids_end() is: for a constant message id both fold to constants, and
-- the planner prunes the other partitions before it runs; inside a join, the executor prunes per row.
-- Ids are uuids (migration 20261208090000_ids_as_uuid), which compare byte by byte: the range is from
-- the millisecond's first id to the next millisecond's.

CREATE OR REPLACE FUNCTION hookline.delivery_ids_from(message_id uuid) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN substr(encode(uuid_send(message_id), 'hex'), 1, 12) < hookline.legacy_ids_end() THEN '000000000000'
               ELSE substr(encode(uuid_send(message_id), 'hex'), 1, 12) END || '00000000000000000000')::uuid
$$;

CREATE OR REPLACE FUNCTION hookline.delivery_ids_before(message_id uuid) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN substr(encode(uuid_send(message_id), 'hex'), 1, 12) < hookline.legacy_ids_end() THEN hookline.legacy_ids_end()
               ELSE lpad(to_hex(('x' || substr(encode(uuid_send(message_id), 'hex'), 1, 12))::bit(48)::bigint + 1), 12, '0')
          END || '00000000000000000000')::uuid
$$;
