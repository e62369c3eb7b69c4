-- hookline.enqueue_http_request: the shared body of hookline.http_get and hookline.http_delete
-- (migration 20261125130000_http_get_delete; SECURITY DEFINER since 20261128090000_producer_functions_
-- definer). In its own file since migration 20261130090000_fanout_by_transaction, which took its
-- queue row away: like hookline.send, it writes the message alone, found by the fan-out through the
-- row's written_by.
--
-- The request functions' shared body for GET and DELETE. hookline.http_post keeps its own (it is
-- the producers' hot path, measured in bench/, and is not redefined here); the checks below are its
-- checks (migration 20261125101000_http_post_validation), in its order and words, so the three refuse
-- the same arguments the same way; only the body and Content-Type rules differ, as in pg_net.
-- A request without a body is stored with the JSON null payload: messages.payload is NOT NULL, and
-- JSON null is what no body reads as in the dashboard. The worker sends no body for GET whatever the
-- payload, and none for a DELETE whose payload is JSON null.
-- The implicit key of a GET or DELETE endpoint hashes the method with the URL, headers and timeout;
-- a POST endpoint's key is hashed as hookline.http_post always did, so existing endpoints are found
-- again and one URL called with two methods is two endpoints.
CREATE OR REPLACE FUNCTION hookline.enqueue_http_request(
  method text,
  url text,
  body jsonb,
  params jsonb,
  headers jsonb,
  timeout_milliseconds integer
) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_variable
DECLARE
  v_app_id constant text := hookline.http_post_app_id();
  v_caller constant text := 'hookline.http_' || lower(method);
  v_event_type constant text := 'http_' || lower(method);
  v_url text;
  v_query text;
  v_headers jsonb := '{}'::jsonb;
  v_stored_headers jsonb := '{}'::jsonb;
  v_header record;
  v_problem text;
  v_seen jsonb := '{}'::jsonb;
  v_count integer := 0;
  v_key text;
  v_endpoint_id text;
  v_message_id uuid;
  v_request_id bigint;
BEGIN
  IF method IS NULL OR method NOT IN ('GET', 'DELETE') THEN
    RAISE EXCEPTION 'hookline.enqueue_http_request: method must be GET or DELETE (POST is hookline.http_post), got %',
      coalesce(quote_literal(method), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF url IS NULL OR url !~* '^https?://[^/?#\s]+([/?#]\S*)?$' THEN
    RAISE EXCEPTION '%: url must be an absolute http:// or https:// URL without spaces, got %',
      v_caller, coalesce(quote_literal(url), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF length(url) > 2048 THEN
    RAISE EXCEPTION '%: url must be at most 2048 characters, got %', v_caller, length(url)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Not echoed: the message would carry the password into the caller's logs.
  IF url ~ '^[^:]+://[^/?#]*@' THEN
    RAISE EXCEPTION '%: url must not contain credentials (user:password@)', v_caller
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Send them in a header, e.g. Authorization, instead.';
  END IF;
  IF method = 'GET' THEN
    body := NULL;
  END IF;
  IF body IS NOT NULL THEN
    PERFORM hookline.check_payload(v_caller, body);
  END IF;
  IF timeout_milliseconds IS NULL OR timeout_milliseconds NOT BETWEEN 1 AND 300000 THEN
    RAISE EXCEPTION '%: timeout_milliseconds must be from 1 to 300000, got %',
      v_caller, coalesce(timeout_milliseconds::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF params IS NOT NULL AND jsonb_typeof(params) <> 'object' THEN
    RAISE EXCEPTION '%: params must be a JSON object of query parameters, got %', v_caller, params
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF headers IS NOT NULL AND jsonb_typeof(headers) <> 'object' THEN
    RAISE EXCEPTION '%: headers must be a JSON object of header names to values, got %', v_caller, headers
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  FOR v_header IN SELECT lower(h.key) AS name, h.value FROM jsonb_each(coalesce(headers, '{}'::jsonb)) AS h LOOP
    IF jsonb_typeof(v_header.value) <> 'string' THEN
      RAISE EXCEPTION '%: header % must be a string, got %', v_caller, quote_literal(v_header.name), v_header.value
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_problem := hookline.header_problem(v_header.name, v_header.value #>> '{}');
    IF v_problem IS NOT NULL THEN
      RAISE EXCEPTION '%: header % %', v_caller, quote_literal(v_header.name), v_problem
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_seen ? v_header.name THEN
      RAISE EXCEPTION '%: header % is given twice (header names are case-insensitive)',
        v_caller, quote_literal(v_header.name)
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_seen := v_seen || jsonb_build_object(v_header.name, true);
    IF v_count = 50 THEN
      RAISE EXCEPTION '%: headers must not hold more than 50 headers', v_caller
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_count := v_count + 1;
    IF v_header.name = 'content-type' THEN
      -- The worker sets application/json when there is a body and nothing when there is none. pg_net
      -- does not check a GET's or DELETE's content type, so neither does this: dropped, like any header
      -- Hookline sets itself, without aborting the caller's transaction over it.
      CONTINUE;
    END IF;
    v_headers := v_headers || jsonb_build_object(v_header.name, v_header.value);
    IF hookline.is_reserved_header(v_header.name) THEN
      RAISE NOTICE '%: header % is set by Hookline; the one given was dropped', v_caller, quote_literal(v_header.name)
        USING HINT = 'Reserved: ' || array_to_string(hookline.reserved_header_names(), ', ') || ' and webhook-*.';
      CONTINUE;
    END IF;
    v_stored_headers := v_stored_headers || jsonb_build_object(v_header.name, v_header.value);
  END LOOP;

  v_url := split_part(url, '#', 1);
  SELECT string_agg(hookline.url_encode(p.key) || '=' || hookline.url_encode(p.value), '&')
    INTO v_query
    FROM jsonb_each_text(coalesce(params, '{}'::jsonb)) AS p;
  IF v_query IS NOT NULL THEN
    v_url := v_url || CASE WHEN strpos(v_url, '?') > 0 THEN '&' ELSE '?' END || v_query;
  END IF;

  v_key := encode(sha256(convert_to(jsonb_build_array(method, v_url, v_headers, timeout_milliseconds)::text, 'UTF8')),
                  'hex');

  SELECT e.id INTO v_endpoint_id
    FROM hookline.endpoints AS e
   WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
  IF NOT FOUND THEN
    INSERT INTO hookline.apps (id, name) VALUES (v_app_id, 'pg_net') ON CONFLICT (id) DO NOTHING;
    INSERT INTO hookline.event_types (app_id, name, description)
    VALUES (v_app_id, v_event_type, 'Requests recorded by ' || v_caller || ', the pg_net drop-in.')
    ON CONFLICT (app_id, name) DO NOTHING;
    INSERT INTO hookline.endpoints AS e
           (app_id, url, method, description, event_types, headers, implicit, implicit_key, timeout_ms)
    VALUES (v_app_id, v_url, method, 'Created by ' || v_caller, ARRAY[v_event_type], v_stored_headers, true, v_key,
            timeout_milliseconds)
    ON CONFLICT (app_id, implicit_key) WHERE implicit_key IS NOT NULL DO NOTHING
    RETURNING e.id INTO v_endpoint_id;
    IF v_endpoint_id IS NULL THEN
      SELECT e.id INTO v_endpoint_id
        FROM hookline.endpoints AS e
       WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
    ELSE
      INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret)
      VALUES (v_app_id, v_endpoint_id,
              'whsec_' || encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'),
                                 'base64'));
    END IF;
  END IF;

  v_request_id := nextval('hookline.http_request_id_seq');
  INSERT INTO hookline.messages AS m (app_id, event_type, payload, request_id, target_endpoint_id)
  VALUES (v_app_id, v_event_type, coalesce(body, 'null'::jsonb), v_request_id, v_endpoint_id)
  RETURNING m.id INTO v_message_id;
  PERFORM hookline.wake_sleeping_workers();
  RETURN v_request_id;
END $$;
