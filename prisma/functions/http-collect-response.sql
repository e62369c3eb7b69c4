-- hookline.http_collect_response (migration 20261125131000_http_response), in its own file since
-- migration 20261130090000_fanout_by_transaction: a message is still waiting for its fan-out while
-- hookline.fanout_cursor has not fanned it out (hookline.fanned_out), not while a queue row exists.
--
-- pg_net's http_collect_response(request_id, async). Where pg_net reports SUCCESS for any response
-- (a 500 included) and ERROR for what it cannot find, Hookline's states map as:
--   succeeded                         -> SUCCESS, message 'ok', the response (body and headers only when
--                                        HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS kept them)
--   pending, delivering, still queued -> PENDING, message saying what it waits for (a retry after an
--                                        error is still PENDING: Hookline has not given up)
--   dead, cancelled                   -> ERROR, message with the error class and message, and the last
--                                        response when there was one (an HTTP error status)
--   unknown id, or never delivered    -> ERROR (pg_net: 'request matching request_id not found')
-- async := false waits (polling every 50 ms, as pg_net does) until the request is no longer PENDING;
-- set statement_timeout to bound the wait. It must run in a transaction other than the request's,
-- under READ COMMITTED, or it would wait for a result it can never see: both are refused instead.
CREATE OR REPLACE FUNCTION hookline.http_collect_response(
  request_id bigint,
  async boolean DEFAULT true
) RETURNS hookline.http_response_result
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_variable
DECLARE
  v_message_id uuid;
  v_app_id text;
  v_mine boolean;
  v_fanned_out boolean;
  v_being_sent boolean;
  v_delivery record;
  v_response hookline._http_response;
  v_status hookline.request_status;
  v_message text;
BEGIN
  IF request_id IS NULL THEN
    RETURN ROW('ERROR', 'request matching request_id not found', NULL)::hookline.http_response_result;
  END IF;
  LOOP
    SELECT m.id, m.app_id, m.xmin::text::bigint = txid_current_if_assigned() % 4294967296
      INTO v_message_id, v_app_id, v_mine
      FROM hookline.messages AS m
     WHERE m.request_id = request_id;
    IF NOT FOUND THEN
      RETURN ROW('ERROR', 'request matching request_id not found', NULL)::hookline.http_response_result;
    END IF;

    -- Whether it was fanned out, read before its deliveries: the fan-out writes them in the statement
    -- that moves the cursor, so a later statement's snapshot sees them. Read after them, a fan-out that
    -- committed between the two reads made a message with deliveries look as if none were written.
    -- (hookline.fanned_out, prisma/functions/fanout-snapshot.sql: exact, message by message in a
    -- transaction the fan-out took in part; a message from before migration 20261130090000 has no
    -- written_by and was fanned out.)
    SELECT NOT EXISTS (SELECT 1 FROM hookline.messages AS m, hookline.fanout_cursor AS c
                        WHERE m.app_id = v_app_id AND m.id = v_message_id
                          AND m.written_by IS NOT NULL
                          AND NOT hookline.fanned_out(m.written_by, m.id, c.fanned_out_through, c.partial_xid,
                                                      c.partial_through_id))
      INTO v_fanned_out;
    -- Whether a fan-out batch holds its first attempt, which has no row until its outcome is written
    -- (migration 20261206090000_first_attempts_written_once). Read before the deliveries too: the batch
    -- row goes only after those rows are written, so a message in a batch now either has its row below
    -- or is being sent.
    SELECT EXISTS (SELECT 1 FROM hookline.messages AS m, hookline.fanout_batches AS b
                    WHERE m.app_id = v_app_id AND m.id = v_message_id
                      AND m.written_by IS NOT NULL
                      AND hookline.fanned_out(m.written_by, m.id, b.through, b.through_partial_xid, b.through_partial_id)
                      AND NOT hookline.fanned_out(m.written_by, m.id, b.after, b.after_partial_xid, b.after_partial_id))
      INTO v_being_sent;

    SELECT d.state, d.attempt_count, d.next_attempt_at, d.last_error_class
      INTO v_delivery
      FROM hookline.deliveries AS d
     WHERE d.message_id = v_message_id
       AND d.id >= hookline.delivery_ids_from(v_message_id)
       AND d.id < hookline.delivery_ids_before(v_message_id)
     ORDER BY d.created_at DESC, d.id DESC
     LIMIT 1;
    IF NOT FOUND THEN
      -- Fanned out, and no endpoint took it; else it waits for its fan-out.
      IF v_fanned_out AND NOT v_being_sent THEN
        RETURN ROW('ERROR', 'not sent: its endpoint was disabled or deleted before it was delivered',
                   NULL)::hookline.http_response_result;
      END IF;
      v_status := 'PENDING';
      v_message := CASE WHEN v_mine THEN 'recorded in this transaction; sent after it commits'
                        WHEN v_being_sent THEN 'first attempt in flight'
                        ELSE 'queued; not yet attempted' END;
    ELSIF v_delivery.state IN ('succeeded', 'dead', 'cancelled') THEN
      SELECT * INTO v_response FROM hookline._http_response AS r WHERE r.id = request_id;
      IF v_delivery.state = 'succeeded' THEN
        RETURN ROW('SUCCESS', 'ok', ROW(v_response.status_code, v_response.headers, v_response.content)::hookline.http_response)::hookline.http_response_result;
      END IF;
      RETURN ROW(
        'ERROR',
        CASE WHEN v_delivery.state = 'cancelled' THEN 'cancelled by an operator'
             ELSE 'failed after ' || v_delivery.attempt_count || ' attempt(s): '
                  || coalesce(v_response.error_msg, v_delivery.last_error_class, 'unknown error')
        END,
        CASE WHEN v_response.status_code IS NOT NULL
             THEN ROW(v_response.status_code, v_response.headers, v_response.content)::hookline.http_response
        END
      )::hookline.http_response_result;
    ELSE
      v_status := 'PENDING';
      IF v_delivery.attempt_count = 0 THEN
        v_message := 'not yet attempted';
      ELSE
        SELECT r.error_msg INTO v_message FROM hookline._http_response AS r WHERE r.id = request_id;
        v_message := 'attempt ' || v_delivery.attempt_count || ' failed (' || coalesce(v_message, 'unknown error')
                     || '); retrying' || CASE WHEN v_delivery.state = 'pending'
                                              THEN ' at ' || v_delivery.next_attempt_at ELSE ' now' END;
      END IF;
    END IF;

    IF async THEN
      RETURN ROW(v_status, v_message, NULL)::hookline.http_response_result;
    END IF;
    IF v_mine THEN
      RAISE EXCEPTION 'hookline.http_collect_response: request % was recorded in this transaction and is sent only after it commits', request_id
        USING ERRCODE = 'object_not_in_prerequisite_state',
              HINT = 'Collect it with async := false in a later transaction, or with async := true.';
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
      RAISE EXCEPTION 'hookline.http_collect_response: async := false waits for other transactions'' results, which % cannot see',
        current_setting('transaction_isolation')
        USING ERRCODE = 'object_not_in_prerequisite_state',
              HINT = 'Wait under READ COMMITTED, or poll with async := true.';
    END IF;
    PERFORM pg_sleep(0.05);
  END LOOP;
END $$;
