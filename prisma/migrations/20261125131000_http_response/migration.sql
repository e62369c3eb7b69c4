-- Responses the way pg_net users read them (issue 25): hookline._http_response has exactly the columns
-- of pg_net's net._http_response, and hookline.http_collect_response answers pg_net's result type, so
-- the query people run when pg_net drops requests,
--   SELECT count(id), status_code, error_msg FROM net._http_response GROUP BY status_code, error_msg ORDER BY 1 DESC;
-- runs against Hookline with only the schema name changed (or unchanged, with
-- hookline.install_pg_net_compat()).

-- One row per request id (hookline.http_post, http_get, http_delete) from its latest attempt; a
-- request not yet attempted has no row, as a pg_net request has none until its response is stored.
-- The latest attempt is the attempt row numbered as the delivery's attempt_count. A success has no
-- row unless HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS (record-results.sql keeps it on the delivery alone), so
-- it is read from the delivery: status code and time are there; the response's headers, content
-- type and content are not kept and read NULL.
-- error_msg is Hookline's error class and message ("connect_refused: connect ECONNREFUSED ..."),
-- NULL for a success; an HTTP error status is an error too ("http_5xx: HTTP 503"), because Hookline
-- retries it where pg_net recorded it as a response. timed_out is the error class timeout. created is
-- when the attempt ended.
-- Cost: the messages with a request id through their partial unique index, then one index probe into
-- deliveries (message_id) and one into attempts (delivery_id) per request; a lookup by id is one of each.
CREATE VIEW hookline._http_response AS
SELECT m.request_id AS id,
       CASE WHEN a.id IS NULL THEN d.last_status_code ELSE a.status_code END AS status_code,
       a.response_headers ->> 'content-type' AS content_type,
       a.response_headers AS headers,
       a.response_body AS content,
       coalesce(CASE WHEN a.id IS NULL THEN d.last_error_class ELSE a.error_class END = 'timeout', false) AS timed_out,
       CASE WHEN a.id IS NULL THEN d.last_error_class
            WHEN a.error_class IS NULL THEN NULL
            ELSE a.error_class || coalesce(': ' || a.error_message, '')
       END AS error_msg,
       CASE WHEN a.id IS NULL
            THEN d.last_attempt_at + make_interval(secs => coalesce(d.last_duration_ms, 0) / 1000)
            ELSE a.started_at + make_interval(secs => a.duration_ms / 1000)
       END AS created
  FROM hookline.messages AS m
  CROSS JOIN LATERAL (
    -- An implicit endpoint's message has one delivery; the newest attempted one if ever more.
    SELECT d.id, d.attempt_count, d.last_status_code, d.last_error_class, d.last_attempt_at, d.last_duration_ms
      FROM hookline.deliveries AS d
     WHERE d.message_id = m.id AND d.attempt_count > 0
     ORDER BY d.created_at DESC, d.id DESC
     LIMIT 1
  ) AS d
  LEFT JOIN LATERAL (
    SELECT a.id, a.status_code, a.error_class, a.error_message, a.response_headers, a.response_body,
           a.started_at, a.duration_ms
      FROM hookline.attempts AS a
     WHERE a.delivery_id = d.id AND a.attempt_number = d.attempt_count
     ORDER BY a.started_at DESC
     LIMIT 1
  ) AS a ON true
 WHERE m.request_id IS NOT NULL;

-- pg_net's result types, field for field.
CREATE TYPE hookline.request_status AS ENUM ('PENDING', 'SUCCESS', 'ERROR');
CREATE TYPE hookline.http_response AS (status_code integer, headers jsonb, body text);
CREATE TYPE hookline.http_response_result AS (
  status hookline.request_status,
  message text,
  response hookline.http_response
);

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
CREATE FUNCTION hookline.http_collect_response(
  request_id bigint,
  async boolean DEFAULT true
) RETURNS hookline.http_response_result
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_variable
DECLARE
  v_message_id text;
  v_mine boolean;
  v_delivery record;
  v_response hookline._http_response;
  v_status hookline.request_status;
  v_message text;
BEGIN
  IF request_id IS NULL THEN
    RETURN ROW('ERROR', 'request matching request_id not found', NULL)::hookline.http_response_result;
  END IF;
  LOOP
    SELECT m.id, m.xmin::text::bigint = txid_current_if_assigned() % 4294967296
      INTO v_message_id, v_mine
      FROM hookline.messages AS m
     WHERE m.request_id = request_id;
    IF NOT FOUND THEN
      RETURN ROW('ERROR', 'request matching request_id not found', NULL)::hookline.http_response_result;
    END IF;

    SELECT d.state, d.attempt_count, d.next_attempt_at, d.last_error_class
      INTO v_delivery
      FROM hookline.deliveries AS d
     WHERE d.message_id = v_message_id
     ORDER BY d.created_at DESC, d.id DESC
     LIMIT 1;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM hookline.fanout_queue AS q WHERE q.message_id = v_message_id) THEN
        RETURN ROW('ERROR', 'not sent: its endpoint was disabled or deleted before it was delivered',
                   NULL)::hookline.http_response_result;
      END IF;
      v_status := 'PENDING';
      v_message := CASE WHEN v_mine THEN 'recorded in this transaction; sent after it commits'
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
