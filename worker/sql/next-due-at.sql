-- Parameters: none.
-- When the next delivery becomes due, so an idle worker can sleep exactly until then instead of
-- polling: now if a committed message waits to be fanned out (its transaction visible now and not in
-- the fan-out's cursor: prisma/functions/fanout-snapshot.sql, through messages_written_by_idx); else
-- the first entry of deliveries_claim_idx, or the end of a fan-out batch's lease that a dead worker
-- left (release-expired-batch-leases.sql), whichever comes first.
SELECT CASE WHEN EXISTS (SELECT 1
                           FROM hookline.fanout_cursor AS c
                           JOIN hookline.messages AS m
                             ON m.written_by >= pg_snapshot_xmin(c.fanned_out_through)
                            AND m.written_by < pg_snapshot_xmax(pg_current_snapshot())
                            AND pg_visible_in_snapshot(m.written_by, pg_current_snapshot())
                            AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through)) THEN now()
            ELSE least((SELECT min(claimable_at) FROM hookline.deliveries WHERE claimable_at IS NOT NULL),
                       (SELECT min(lease_expires_at) FROM hookline.fanout_batches))
       END AS next_due_at
