-- The pg_net drop-in: hookline.http_post has the parameter names, types, order, defaults and return
-- type of pg_net's net.http_post (0.8 and later), so a trigger that calls
--   net.http_post(url := ..., body := ..., headers := ...)
-- moves over by writing hookline.http_post instead. Where pg_net opens a new connection per request
-- and forgets failures, the request becomes a message and a delivery that the worker sends over a
-- keep-alive pool, retries, and logs.
--
-- Each distinct (url with params, headers, timeout) is one implicit endpoint of the implicit app
-- 'app_pg_net', created on first use with its own signing secret and found again on later calls.
-- Differing headers or timeouts for one URL therefore give differing endpoints (each with its own
-- connection pool and attempt history), because an endpoint has one set of headers and one timeout;
-- updating a shared endpoint on every call would also make every inserting transaction wait on one
-- row lock. Params that vary per call give one endpoint per value: put varying data in the body.

-- pg_net hands out request ids from a sequence; so does Hookline, kept on the message.
CREATE SEQUENCE hookline.http_request_id_seq AS bigint;

ALTER TABLE hookline.messages ADD COLUMN request_id bigint;
CREATE UNIQUE INDEX messages_request_id_key ON hookline.messages (request_id) WHERE request_id IS NOT NULL;

ALTER TABLE hookline.endpoints
  -- Per-attempt deadline for this endpoint; NULL means the worker's HOOKLINE_DELIVERY_TIMEOUT_MS.
  ADD COLUMN timeout_ms integer CHECK (timeout_ms BETWEEN 1 AND 300000),
  -- For implicit endpoints: sha256 of what hookline.http_post was asked for (url with params,
  -- headers, timeout). Kept apart from url and headers so that an operator may edit the endpoint
  -- without breaking the lookup, and so that long URLs and headers do not hit btree's ~2.7 KB limit.
  ADD COLUMN implicit_key text;
CREATE UNIQUE INDEX endpoints_implicit_key_key ON hookline.endpoints (app_id, implicit_key)
  WHERE implicit_key IS NOT NULL;

-- The app that owns implicit endpoints. A fixed id, so every call finds it by primary key and
-- operators can find it in the dashboard and the API.
CREATE FUNCTION hookline.http_post_app_id() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'app_pg_net'::text $$;

-- Percent-encodes every byte of the UTF-8 text except RFC 3986's unreserved characters, as
-- pg_net (libcurl) does for params.
CREATE FUNCTION hookline.url_encode(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
           CASE WHEN byte BETWEEN 48 AND 57 OR byte BETWEEN 65 AND 90 OR byte BETWEEN 97 AND 122
                     OR byte IN (45, 46, 95, 126)
                THEN chr(byte)
                ELSE '%' || upper(lpad(to_hex(byte), 2, '0'))
           END, '' ORDER BY position), '')
    FROM (SELECT convert_to(value, 'UTF8') AS bytes) AS utf8,
         LATERAL generate_series(0, length(utf8.bytes) - 1) AS position,
         LATERAL get_byte(utf8.bytes, position) AS byte
$$;

CREATE FUNCTION hookline.http_post(
  url text,
  body jsonb DEFAULT '{}'::jsonb,
  params jsonb DEFAULT '{}'::jsonb,
  headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer DEFAULT 5000
) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_variable
DECLARE
  v_app_id constant text := hookline.http_post_app_id();
  v_url text;
  v_query text;
  v_headers jsonb := '{}'::jsonb;
  v_header record;
  v_key text;
  v_endpoint_id text;
  v_enabled boolean;
  v_message_id text;
  v_request_id bigint;
BEGIN
  IF url IS NULL OR url !~* '^https?://[^/?#\s]+([/?#]\S*)?$' THEN
    RAISE EXCEPTION 'hookline.http_post: url must be an absolute http:// or https:// URL without spaces, got %',
      coalesce(quote_literal(url), 'NULL')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF body IS NULL THEN
    RAISE EXCEPTION 'hookline.http_post: body must not be NULL (url %)', quote_literal(url)
      USING ERRCODE = 'null_value_not_allowed', HINT = 'Pass ''{}''::jsonb for an empty body.';
  END IF;
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
    IF v_header.name = 'content-type' THEN
      -- pg_net refuses any other content type too; the body is always JSON.
      IF lower(v_header.value #>> '{}') NOT LIKE 'application/json%' THEN
        RAISE EXCEPTION 'hookline.http_post: the Content-Type header must be "application/json", got %', v_header.value
          USING ERRCODE = 'invalid_parameter_value';
      END IF;
      CONTINUE;
    END IF;
    v_headers := v_headers || jsonb_build_object(v_header.name, v_header.value);
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
    VALUES (v_app_id, v_url, 'Created by hookline.http_post', ARRAY['http_post'], v_headers, true, v_key,
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
  INSERT INTO hookline.messages AS m (app_id, event_type, payload, request_id)
  VALUES (v_app_id, 'http_post', body, v_request_id)
  RETURNING m.id INTO v_message_id;
  -- Like hookline.send, a disabled endpoint records the message but gets no delivery.
  IF v_enabled THEN
    INSERT INTO hookline.deliveries (app_id, message_id, endpoint_id, event_type)
    VALUES (v_app_id, v_message_id, v_endpoint_id, 'http_post');
  END IF;
  RETURN v_request_id;
END $$;
