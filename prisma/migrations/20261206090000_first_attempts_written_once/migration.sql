-- A first attempt leased by a fan-out gets its delivery row once, with its outcome: the result's
-- write inserts it (worker/sql/record-results.sql), or a release inserts it 'pending'
-- (worker/sql/release-deliveries.sql). Before, the fan-out inserted it 'delivering' and the result
-- updated it, a heap insert and a HOT update of the same row: 150 B of WAL per event (issue 22: <= 1,000 B
-- of WAL per event; the drains measured are in bench/README.md).
--
-- Until then the first attempt lives in two places: its worker's memory, and its fan-out batch's row,
-- whose lease covers it. If that lease runs out (the worker died), worker/sql/release-expired-batch-leases.sql
-- writes the rows of its batch's first attempts that have none, 'pending': the batch row names its
-- messages (its two cursors) and, from now on, the endpoints it leased first attempts to
-- (endpoint_ids); each message's delivery to each of those endpoints that it is for is one of them.
-- Their ids must be the ones sent (the webhook-id a receiver deduplicates by), so a fan-out's delivery
-- ids are no longer drawn: hookline.delivery_id(message, endpoint) is a digest of the two, with the
-- message's time in front as before (its time partition: prisma/functions/new-id.sql, which keeps the
-- current body; restated here because the view below reads it).
CREATE OR REPLACE FUNCTION hookline.delivery_id(message_id text, endpoint_id text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT 'dlv_'
      OPERATOR(pg_catalog.||) pg_catalog.substr(message_id, pg_catalog.strpos(message_id, '_') OPERATOR(pg_catalog.+) 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.encode(pg_catalog.sha256(pg_catalog.textsend(
           message_id OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) endpoint_id)), 'hex'), 1, 20)
$$;

-- Whether an endpoint gets a delivery of a message (prisma/functions/endpoint-takes.sql keeps the current
-- body; restated here because the view below reads it).
CREATE OR REPLACE FUNCTION hookline.endpoint_takes(endpoint_id text, event_types text[], event_type text,
                                                   target_endpoint_id text)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(endpoint_id OPERATOR(pg_catalog.=) target_endpoint_id, false)
      OR (target_endpoint_id IS NULL
          AND (pg_catalog.cardinality(event_types) OPERATOR(pg_catalog.=) 0
               OR event_type OPERATOR(pg_catalog.=) ANY (event_types)))
$$;

-- Batches written before this migration name no endpoints: their first attempts have rows ('delivering',
-- leased to the batch's worker), which the release of expired leases still gives back as before.
ALTER TABLE hookline.fanout_batches ADD COLUMN endpoint_ids text[] COLLATE "C" NOT NULL DEFAULT '{}';

-- The unfinished deliveries: the claim queue, the first attempts being sent (a row of each
-- (message, endpoint) pair of a leased batch that has no row yet), and rows a fan-out leased before
-- this migration, each with the lease it runs under (a first attempt's is its batch's). Its columns are
-- those its readers use; lib/domain/stats/read-live-queue.ts
-- (UNFINISHED_CTES) restates it for the dashboard's counts.
DROP VIEW hookline.unfinished_deliveries;
CREATE VIEW hookline.unfinished_deliveries AS
  WITH batch_messages AS MATERIALIZED (
    SELECT m.id, m.app_id, m.event_type, m.created_at, m.target_endpoint_id, b.lease_owner, b.lease_expires_at,
           b.endpoint_ids
      FROM hookline.fanout_batches AS b
      JOIN hookline.messages AS m
        ON m.written_by >= pg_snapshot_xmin(b.after) AND m.written_by <= pg_snapshot_xmax(b.through)
       -- hookline.fanned_out (prisma/functions/fanout-snapshot.sql) written out: the functions' files
       -- are applied after the migrations.
       AND (pg_visible_in_snapshot(m.written_by, b.through)
            OR coalesce(m.written_by = b.through_partial_xid AND m.id <= b.through_partial_id, false))
       AND NOT (pg_visible_in_snapshot(m.written_by, b.after)
                OR coalesce(m.written_by = b.after_partial_xid AND m.id <= b.after_partial_id, false))
  )
  SELECT d.id, d.app_id, d.message_id, d.endpoint_id, d.event_type, d.state, d.attempt_count, d.next_attempt_at,
         d.created_at, d.lease_owner, d.lease_expires_at
    FROM hookline.deliveries AS d
   WHERE d.claimable_at IS NOT NULL
  UNION ALL
  SELECT hookline.delivery_id(bm.id, e.id), bm.app_id, bm.id, e.id, bm.event_type, 'delivering', 0, bm.created_at,
         bm.created_at, bm.lease_owner, bm.lease_expires_at
    FROM batch_messages AS bm
    JOIN hookline.endpoints AS e
      ON e.id = ANY (bm.endpoint_ids) AND e.app_id = bm.app_id
     AND hookline.endpoint_takes(e.id, e.event_types, bm.event_type, bm.target_endpoint_id)
   -- A probe per pair by primary key: NOT EXISTS became an anti join that could read a whole partition
   -- for each pair (worker/sql/record-results.sql).
   WHERE (SELECT d.id FROM hookline.deliveries AS d WHERE d.id = hookline.delivery_id(bm.id, e.id)) IS NULL
  UNION ALL
  SELECT d.id, d.app_id, d.message_id, d.endpoint_id, d.event_type, d.state, d.attempt_count, d.next_attempt_at,
         d.created_at, d.lease_owner, d.lease_expires_at
    FROM batch_messages AS bm
   CROSS JOIN LATERAL (
     SELECT d.* FROM hookline.deliveries AS d
      WHERE d.message_id = bm.id
        AND d.id >= hookline.delivery_ids_from(bm.id)
        AND d.id < hookline.delivery_ids_before(bm.id)
        AND d.lease_owner = bm.lease_owner AND d.claimable_at IS NULL AND d.state = 'delivering'
     OFFSET 0
   ) AS d;
