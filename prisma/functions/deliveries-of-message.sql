-- Where a message's deliveries are: the range of delivery ids [hookline.delivery_ids_from(message_id),
-- hookline.delivery_ids_before(message_id)), which every lookup of deliveries by message_id states
-- beside it (migration 20261201090000_deliveries_by_message_through_id dropped the index on
-- message_id). The range is the message's millisecond: a delivery's id starts with its message's 12
-- hex digits of milliseconds (hookline.new_id(prefix, sibling)), so the range is one partition and a
-- few entries of deliveries_pkey. A message of the legacy partition's time (before
-- hookline.legacy_ids_end(), which that migration wrote: '000000000000' unless the legacy partition
-- holds deliveries written before time partitions) may have deliveries with ids of their own time
-- anywhere in the legacy partition: its range is all of it, where an index on message_id finds them.
-- IMMUTABLE, as hookline.legacy_ids_end() is: for a constant message id both fold to constants, and
-- the planner prunes the other partitions before it runs; inside a join, the executor prunes per row.
-- The upper bound is the millisecond followed by 'g', which sorts after every hex digit in every
-- collation, as the digits sort the same in all of them (migration 20261126130000_time_partitions).
-- Any text is accepted: an id that is not a message's gets a range that holds none of its deliveries.

CREATE OR REPLACE FUNCTION hookline.delivery_ids_from(message_id text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN substr(message_id, 5, 12) < hookline.legacy_ids_end() THEN ''
              ELSE 'dlv_' || substr(message_id, 5, 12) END
$$;

CREATE OR REPLACE FUNCTION hookline.delivery_ids_before(message_id text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'dlv_' || CASE WHEN substr(message_id, 5, 12) < hookline.legacy_ids_end() THEN hookline.legacy_ids_end()
                        ELSE substr(message_id, 5, 12) || 'g' END
$$;
