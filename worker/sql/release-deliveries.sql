-- Parameters: $1 workerId, $2 deliveryIds, $3 dueAts, $4 settledBatchIds, $5 batchIds, $6 appIds,
--   $7 endpointIds, $8 messageIds, $9 eventTypes, $10 createdAts.
-- Gives leased deliveries back without spending an attempt: on shutdown for work not yet sent, for a
-- disabled endpoint, while an endpoint's circuit is open, or when a delivery waited too long for a
-- free connection. $2 and $3 are parallel arrays: each delivery is due again at its own time.
-- A delivery with a row is fenced by the lease owner alone, like every completion (see
-- record-results.sql for why no state). A first attempt has no row yet ($5-$10 name what it is
-- written with, and the fan-out batch whose row holds its lease; NULL for the others): its row is
-- written here, 'pending', if that batch row is still this worker's (locked first: no release of
-- expired leases writes it meanwhile) and no row of its id exists (one was written when that batch's
-- lease ran out: then this release changes nothing).
-- $4: fan-out batches whose first attempts' outcomes were all written before (worker/leases.ts);
-- their rows held those attempts' lease (fan-out-messages.sql) and go.
-- Crash cost: none; a release that never ran is undone by the lease running out.
-- Lock order: batch rows, then deliveries (record-results.sql says why).
WITH releases AS (
  SELECT *
    FROM unnest($2::uuid[], $3::timestamptz[], $5::bigint[], $6::text[], $7::text[], $8::uuid[], $9::text[],
                $10::timestamptz[])
      AS r(id, due_at, batch_id, app_id, endpoint_id, message_id, event_type, created_at)
), settled_batches AS (
  DELETE FROM hookline.fanout_batches AS b
   WHERE b.id = ANY ($4::bigint[])
     AND b.lease_owner = $1
  RETURNING b.id
), held_batches AS (
  SELECT b.id
    FROM hookline.fanout_batches AS b
   WHERE b.id = ANY ($5::bigint[])
     AND b.lease_owner = $1
     FOR SHARE
), live_endpoints AS (
  -- As in record-results.sql: no row for an endpoint deleted meanwhile, and its deletion waits for this.
  SELECT e.id
    FROM hookline.endpoints AS e
   WHERE e.id = ANY ($7::text[])
     FOR KEY SHARE
), written AS (
  INSERT INTO hookline.deliveries AS d
         (id, app_id, message_id, endpoint_id, event_type, state, next_attempt_at, claimable_at, created_at,
          updated_at)
  SELECT r.id, r.app_id, r.message_id, r.endpoint_id, r.event_type, 'pending', r.due_at, r.due_at, r.created_at, now()
    FROM releases AS r
   WHERE r.batch_id IS NOT NULL
     AND r.batch_id IN (SELECT id FROM held_batches)
     AND r.endpoint_id IN (SELECT id FROM live_endpoints)
     -- A probe per release by primary key, as in record-results.sql (why not NOT EXISTS: there).
     AND (SELECT x.id FROM hookline.deliveries AS x WHERE x.id = r.id) IS NULL
     AND (SELECT count(*) FROM settled_batches) >= 0
  RETURNING d.id
), released AS (
  UPDATE hookline.deliveries AS d
     SET state = 'pending',
         lease_owner = NULL,
         lease_expires_at = NULL,
         next_attempt_at = r.due_at,
         claimable_at = r.due_at,
         updated_at = now()
    FROM releases AS r
   WHERE r.batch_id IS NULL
     AND d.id = r.id
     AND d.lease_owner = $1
     AND (SELECT count(*) FROM settled_batches) >= 0
  RETURNING d.id
)
SELECT (SELECT count(*) FROM written)::int + (SELECT count(*) FROM released)::int AS released
