-- Parameters: none.
-- When the next delivery becomes due, so an idle worker can sleep exactly until then instead of
-- polling: now if a committed message waits to be fanned out (not fanned out by the fan-out's cursor,
-- its transaction visible now: prisma/functions/fanout-snapshot.sql, through messages_written_by_idx);
-- else the first entry of deliveries_claim_idx, or the end of a fan-out batch's lease that a dead worker
-- left (release-expired-batch-leases.sql), whichever comes first.
-- Exact, with the same three index ranges as fan-out-messages.sql's lock: the rest of the transaction
-- taken in part, then the others below and above it. Treating the part taken as still waiting would
-- say "now" forever if the rest were gone (its app deleted) while the fan-out finds nothing to take,
-- and walk the part taken (up to a whole big transaction) on every idle poll.
SELECT CASE WHEN EXISTS (SELECT 1
                           FROM hookline.fanout_cursor AS c
                          WHERE EXISTS (SELECT 1 FROM hookline.messages AS m
                                         WHERE m.written_by = c.partial_xid AND m.id > c.partial_through_id)
                             OR EXISTS (SELECT 1 FROM hookline.messages AS m
                                         WHERE m.written_by >= pg_snapshot_xmin(c.fanned_out_through)
                                           AND m.written_by < coalesce(c.partial_xid, pg_snapshot_xmax(pg_current_snapshot()))
                                           AND pg_visible_in_snapshot(m.written_by, pg_current_snapshot())
                                           AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through))
                             OR EXISTS (SELECT 1 FROM hookline.messages AS m
                                         WHERE m.written_by > c.partial_xid
                                           AND m.written_by < pg_snapshot_xmax(pg_current_snapshot())
                                           AND pg_visible_in_snapshot(m.written_by, pg_current_snapshot())
                                           AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through))) THEN now()
            ELSE least((SELECT min(claimable_at) FROM hookline.deliveries WHERE claimable_at IS NOT NULL),
                       (SELECT min(lease_expires_at) FROM hookline.fanout_batches))
       END AS next_due_at
