-- A schema net for databases without pg_net (issue 25): SELECT hookline.install_pg_net_compat()
-- creates net.http_get, net.http_post, net.http_delete, net.http_collect_response, pg_net's three
-- types and the view net._http_response, each delegating to its hookline.* counterpart, so every
-- existing call and the usual diagnostic query run unchanged. hookline.uninstall_pg_net_compat()
-- removes exactly what the install made.
--
-- Nothing here is created by the migration itself: a database that does not ask for a schema net
-- gets none, and one with pg_net keeps pg_net's.
-- The request functions are SQL functions of one SELECT: PostgreSQL inlines them into the calling
-- statement, so net.http_post costs what hookline.http_post costs (no second function call).
-- They run with the caller's privileges, like hookline.http_post: a role that can call that can call
-- these, and one that cannot, cannot.
-- The objects belong to whoever runs the install; it needs CREATE on the database (its owner has it),
-- no superuser and no extension.

-- The install's mark: the comment on schema net. A schema net without it is someone else's (pg_net's,
-- or the user's own) and is never changed or dropped.
CREATE FUNCTION hookline.pg_net_compat_mark() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'Hookline''s pg_net compatibility schema (hookline.install_pg_net_compat); '
      || 'remove it with SELECT hookline.uninstall_pg_net_compat()'::text
$$;

CREATE FUNCTION hookline.pg_net_compat_installed() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT obj_description(n.oid, 'pg_namespace') = hookline.pg_net_compat_mark()
                     FROM pg_catalog.pg_namespace AS n WHERE n.nspname = 'net'), false)
$$;

CREATE FUNCTION hookline.install_pg_net_compat() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname = 'pg_net') THEN
    RAISE EXCEPTION 'hookline.install_pg_net_compat: the pg_net extension is installed in this database and owns schema net'
      USING ERRCODE = 'object_in_use',
            HINT = 'To switch to Hookline: (1) stop new requests and wait until pg_net''s queue is empty '
                || '(SELECT count(*) FROM net.http_request_queue returns 0); (2) keep its responses if you want them '
                || '(CREATE TABLE public.pg_net_responses AS SELECT * FROM net._http_response); (3) DROP EXTENSION pg_net '
                || '(functions and triggers that call net.http_* stay: they look the name up when they run); '
                || '(4) SELECT hookline.install_pg_net_compat().';
  END IF;
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = 'net') THEN
    IF hookline.pg_net_compat_installed() THEN
      RAISE NOTICE 'hookline.install_pg_net_compat: already installed; nothing changed';
      RETURN;
    END IF;
    RAISE EXCEPTION 'hookline.install_pg_net_compat: a schema net exists and is not Hookline''s; nothing changed'
      USING ERRCODE = 'duplicate_schema',
            HINT = 'Rename it (ALTER SCHEMA net RENAME TO ...) or drop it, then install again.';
  END IF;

  CREATE SCHEMA net;
  EXECUTE format('COMMENT ON SCHEMA net IS %L', hookline.pg_net_compat_mark());
  -- As pg_net does: any role may look the names up; what it may do is what it may do in hookline.
  GRANT USAGE ON SCHEMA net TO PUBLIC;

  CREATE TYPE net.request_status AS ENUM ('PENDING', 'SUCCESS', 'ERROR');
  CREATE TYPE net.http_response AS (status_code integer, headers jsonb, body text);
  CREATE TYPE net.http_response_result AS (status net.request_status, message text, response net.http_response);

  CREATE FUNCTION net.http_get(
    url text,
    params jsonb DEFAULT '{}'::jsonb,
    headers jsonb DEFAULT '{}'::jsonb,
    timeout_milliseconds integer DEFAULT 5000
  ) RETURNS bigint
  LANGUAGE sql VOLATILE
  AS $f$ SELECT hookline.http_get(url, params, headers, timeout_milliseconds) $f$;

  CREATE FUNCTION net.http_post(
    url text,
    body jsonb DEFAULT '{}'::jsonb,
    params jsonb DEFAULT '{}'::jsonb,
    headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb,
    timeout_milliseconds integer DEFAULT 5000
  ) RETURNS bigint
  LANGUAGE sql VOLATILE
  AS $f$ SELECT hookline.http_post(url, body, params, headers, timeout_milliseconds) $f$;

  CREATE FUNCTION net.http_delete(
    url text,
    params jsonb DEFAULT '{}'::jsonb,
    headers jsonb DEFAULT '{}'::jsonb,
    timeout_milliseconds integer DEFAULT 5000,
    body jsonb DEFAULT NULL::jsonb
  ) RETURNS bigint
  LANGUAGE sql VOLATILE
  AS $f$ SELECT hookline.http_delete(url, params, headers, timeout_milliseconds, body) $f$;

  CREATE FUNCTION net.http_collect_response(
    request_id bigint,
    async boolean DEFAULT true
  ) RETURNS net.http_response_result
  LANGUAGE sql VOLATILE
  AS $f$
    SELECT ROW(r.status::text::net.request_status, r.message,
               CASE WHEN r.response IS NULL THEN NULL
                    ELSE ROW((r.response).status_code, (r.response).headers, (r.response).body)::net.http_response
               END)::net.http_response_result
      FROM hookline.http_collect_response(request_id, async) AS r
  $f$;

  CREATE VIEW net._http_response AS
  SELECT id, status_code, content_type, headers, content, timed_out, error_msg, created
    FROM hookline._http_response;
END $$;

CREATE FUNCTION hookline.uninstall_pg_net_compat() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = 'net') THEN
    RAISE NOTICE 'hookline.uninstall_pg_net_compat: not installed; nothing changed';
    RETURN;
  END IF;
  IF NOT hookline.pg_net_compat_installed() THEN
    RAISE EXCEPTION 'hookline.uninstall_pg_net_compat: schema net is not Hookline''s (pg_net''s, or your own); nothing changed'
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  -- No CASCADE anywhere: an object of the user's that depends on these (a view over
  -- net._http_response) or lives in net makes the uninstall fail whole, with PostgreSQL's message
  -- naming it, instead of being dropped with them.
  DROP VIEW net._http_response;
  DROP FUNCTION net.http_collect_response(bigint, boolean);
  DROP FUNCTION net.http_delete(text, jsonb, jsonb, integer, jsonb);
  DROP FUNCTION net.http_post(text, jsonb, jsonb, jsonb, integer);
  DROP FUNCTION net.http_get(text, jsonb, jsonb, integer);
  DROP TYPE net.http_response_result;
  DROP TYPE net.http_response;
  DROP TYPE net.request_status;
  DROP SCHEMA net;
END $$;
