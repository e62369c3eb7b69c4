-- hookline.http_post(url, body, params, headers, timeout_milliseconds): pg_net's net.http_post with the
-- same parameter names, order, types and defaults. Each distinct URL (with params as its query string),
-- header set and timeout is an implicit endpoint of the app app_pg_net, created on first use; the body
-- is the message. Refuses what the REST API refuses for an endpoint (test/api/ways-in-agree.test.ts): a
-- URL with credentials or longer than 2048 characters, a header undici would refuse to send (CR/LF, a
-- control character, a name that is no token), too long, given twice in two spellings, or more than 50.
-- Headers Hookline sets itself are dropped with a NOTICE, as pg_net accepts them.
--
-- SECURITY DEFINER with a fixed search_path, as hookline.send: a role that calls it (a trigger of the
-- application, net.http_post, supabase_functions.http_request) needs only USAGE on schema hookline and
-- cannot read the endpoints' URLs and headers it finds or creates. plpgsql: never inlined either way.
CREATE OR REPLACE FUNCTION hookline.http_post(
  url text,
  body jsonb DEFAULT '{}'::jsonb,
  params jsonb DEFAULT '{}'::jsonb,
  headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer DEFAULT 5000
) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
#variable_conflict use_variable
DECLARE
  v_app_id constant text := hookline.http_post_app_id();
  v_url text;
  v_query text;
  v_headers jsonb := '{}'::jsonb;
  v_stored_headers jsonb := '{}'::jsonb;
  v_header record;
  v_problem text;
  v_count integer := 0;
  v_key text;
  v_endpoint_id text;
  v_enabled boolean;
  v_request_id bigint;
BEGIN
  IF url IS NULL OR url !~* '^https?://[^/?#\s]+([/?#]\S*)?$' THEN
    RAISE EXCEPTION 'hookline.http_post: url must be an absolute http:// or https:// URL without spaces, got %',
      coalesce(quote_literal(url), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF length(url) > 2048 THEN
    RAISE EXCEPTION 'hookline.http_post: url must be at most 2048 characters, got %', length(url)
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- Not echoed: the message would carry the password into the caller's logs.
  IF url ~ '^[^:]+://[^/?#]*@' THEN
    RAISE EXCEPTION 'hookline.http_post: url must not contain credentials (user:password@)'
      USING ERRCODE = 'invalid_parameter_value', HINT = 'Send them in a header, e.g. Authorization, instead.';
  END IF;
  IF body IS NULL THEN
    RAISE EXCEPTION 'hookline.http_post: body must not be NULL (url %)', quote_literal(url)
      USING ERRCODE = 'null_value_not_allowed', HINT = 'Pass ''{}''::jsonb for an empty body.';
  END IF;
  PERFORM hookline.check_payload('hookline.http_post', body);
  IF timeout_milliseconds IS NULL OR timeout_milliseconds NOT BETWEEN 1 AND 300000 THEN
    RAISE EXCEPTION 'hookline.http_post: timeout_milliseconds must be from 1 to 300000, got %',
      coalesce(timeout_milliseconds::text, 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF params IS NOT NULL AND jsonb_typeof(params) <> 'object' THEN
    RAISE EXCEPTION 'hookline.http_post: params must be a JSON object of query parameters, got %', params
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF headers IS NOT NULL AND jsonb_typeof(headers) <> 'object' THEN
    RAISE EXCEPTION 'hookline.http_post: headers must be a JSON object of header names to values, got %', headers
      USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- Header names are case-insensitive: store them lower-case so that the worker's own
  -- content-type replaces the caller's instead of being sent twice.
  FOR v_header IN SELECT lower(h.key) AS name, h.value FROM jsonb_each(coalesce(headers, '{}'::jsonb)) AS h LOOP
    IF jsonb_typeof(v_header.value) <> 'string' THEN
      RAISE EXCEPTION 'hookline.http_post: header % must be a string, got %', quote_literal(v_header.name), v_header.value
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- What undici could never send (a CR/LF, a control character, a name that is no token) used to be
    -- stored and retried until dead; refused now, as the REST API refuses it.
    v_problem := hookline.header_problem(v_header.name, v_header.value #>> '{}');
    IF v_problem IS NOT NULL THEN
      RAISE EXCEPTION 'hookline.http_post: header % %', quote_literal(v_header.name), v_problem
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_headers ? v_header.name THEN
      RAISE EXCEPTION 'hookline.http_post: header % is given twice (header names are case-insensitive)',
        quote_literal(v_header.name)
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_count := v_count + 1;
    IF v_count > 50 THEN
      RAISE EXCEPTION 'hookline.http_post: headers must not hold more than 50 headers'
        USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_header.name = 'content-type' THEN
      -- pg_net refuses any other content type too; the body is always JSON.
      IF lower(v_header.value #>> '{}') NOT LIKE 'application/json%' THEN
        RAISE EXCEPTION 'hookline.http_post: the Content-Type header must be "application/json", got %', v_header.value
          USING ERRCODE = 'invalid_parameter_value';
      END IF;
      CONTINUE;
    END IF;
    -- The key's material: every header as given, as before this migration.
    v_headers := v_headers || jsonb_build_object(v_header.name, v_header.value);
    -- Reserved (lib/webhooks/reserved-headers.ts): dropped, not refused. pg_net sends whatever it is
    -- given, so a trigger that passes "Connection: close" or its own "webhook-signature" works there;
    -- raising here would abort the caller's transaction and lose its row over a header that Hookline
    -- sets itself anyway. A NOTICE says so to whoever runs the statement by hand (NOTICE, not WARNING:
    -- a WARNING per call would also go to the server log of every inserting trigger).
    IF hookline.is_reserved_header(v_header.name) THEN
      RAISE NOTICE 'hookline.http_post: header % is set by Hookline; the one given was dropped', quote_literal(v_header.name)
        USING HINT = 'Reserved: ' || array_to_string(hookline.reserved_header_names(), ', ') || ' and webhook-*.';
      CONTINUE;
    END IF;
    v_stored_headers := v_stored_headers || jsonb_build_object(v_header.name, v_header.value);
  END LOOP;

  -- A fragment is never sent over HTTP; dropping it lets params go where a server reads them.
  v_url := split_part(url, '#', 1);
  SELECT string_agg(hookline.url_encode(p.key) || '=' || hookline.url_encode(p.value), '&')
    INTO v_query
    FROM jsonb_each_text(coalesce(params, '{}'::jsonb)) AS p;
  IF v_query IS NOT NULL THEN
    v_url := v_url || CASE WHEN strpos(v_url, '?') > 0 THEN '&' ELSE '?' END || v_query;
  END IF;

  v_key := encode(sha256(convert_to(jsonb_build_array(v_url, v_headers, timeout_milliseconds)::text, 'UTF8')), 'hex');

  -- The hot path: one index probe. Everything below it runs once per new (url, headers, timeout).
  SELECT e.id, e.enabled INTO v_endpoint_id, v_enabled
    FROM hookline.endpoints AS e
   WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
  IF NOT FOUND THEN
    INSERT INTO hookline.apps (id, name) VALUES (v_app_id, 'pg_net') ON CONFLICT (id) DO NOTHING;
    INSERT INTO hookline.event_types (app_id, name, description)
    VALUES (v_app_id, 'http_post', 'Requests recorded by hookline.http_post, the pg_net drop-in.')
    ON CONFLICT (app_id, name) DO NOTHING;
    -- ON CONFLICT waits for a concurrent first call with the same key to commit or roll back, so
    -- racing transactions end with one endpoint.
    INSERT INTO hookline.endpoints AS e (app_id, url, description, event_types, headers, implicit, implicit_key, timeout_ms)
    VALUES (v_app_id, v_url, 'Created by hookline.http_post', ARRAY['http_post'], v_stored_headers, true, v_key,
            timeout_milliseconds)
    ON CONFLICT (app_id, implicit_key) WHERE implicit_key IS NOT NULL DO NOTHING
    RETURNING e.id, e.enabled INTO v_endpoint_id, v_enabled;
    IF v_endpoint_id IS NULL THEN
      SELECT e.id, e.enabled INTO v_endpoint_id, v_enabled
        FROM hookline.endpoints AS e
       WHERE e.app_id = v_app_id AND e.implicit_key = v_key;
    ELSE
      -- 32 bytes from two v4 UUIDs (244 random bits); Standard Webhooks asks for 24 to 64 bytes.
      INSERT INTO hookline.endpoint_secrets (app_id, endpoint_id, secret)
      VALUES (v_app_id, v_endpoint_id,
              'whsec_' || encode(decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'),
                                 'base64'));
    END IF;
  END IF;

  v_request_id := nextval('hookline.http_request_id_seq');
  -- Aimed at this one endpoint: the worker's fan-out sends it there and nowhere else (the app's other
  -- implicit endpoints also take 'http_post'). Like hookline.send, a disabled endpoint records the
  -- message but gets no delivery.
  INSERT INTO hookline.messages AS m (app_id, event_type, payload, request_id, target_endpoint_id)
  VALUES (v_app_id, 'http_post', body, v_request_id, v_endpoint_id);
  PERFORM hookline.wake_sleeping_workers();
  RETURN v_request_id;
END $$;
