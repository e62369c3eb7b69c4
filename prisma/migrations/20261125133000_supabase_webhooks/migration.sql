-- Supabase database webhooks through Hookline (issue 25). The Supabase dashboard makes each webhook a
-- trigger that runs supabase_functions.http_request() with five arguments (url, method, headers as
-- JSON text, params as JSON text, timeout in ms); that function sends the change as
-- {"type", "table", "schema", "record", "old_record"} with pg_net and records the request id in
-- supabase_functions.hooks. hookline.install_supabase_webhooks() redefines that one function to
-- record the same request through Hookline instead: same arguments, same body, same bookkeeping, no
-- trigger touched, and webhooks made later in the dashboard go through Hookline too.
-- hookline.uninstall_supabase_webhooks() puts the original back from the definition kept here
-- (pg_get_functiondef before the install), not retyped.
-- CREATE OR REPLACE keeps the function's oid, owner, privileges and comment, so the triggers, which
-- point at the oid, run the new body from the next statement on, and the original's attributes
-- survive the round trip.

-- Definitions of functions outside schema hookline that an install replaced, by signature.
CREATE TABLE hookline.replaced_functions (
  function_name text PRIMARY KEY,
  original_definition text NOT NULL,
  replaced_at timestamptz NOT NULL DEFAULT now()
);

-- The replacement's body. Request ids are Hookline's (hookline._http_response), and
-- supabase_functions.hooks records them as it recorded pg_net's.
-- A method other than GET or POST raises, as the dashboard offers only those two.
-- The marker comment lets install and uninstall tell Hookline's definition from any other.
CREATE FUNCTION hookline.supabase_http_request_definition(security_definer boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $def$
  SELECT format($f$CREATE OR REPLACE FUNCTION supabase_functions.http_request() RETURNS trigger
LANGUAGE plpgsql %s SET search_path = pg_catalog, pg_temp
AS $body$
-- Installed by hookline.install_supabase_webhooks(); restore the original with
-- SELECT hookline.uninstall_supabase_webhooks().
DECLARE
  v_url text := TG_ARGV[0];
  v_method text := upper(coalesce(TG_ARGV[1], 'POST'));
  v_headers jsonb := coalesce(nullif(TG_ARGV[2], ''), '{}')::jsonb;
  v_params jsonb := coalesce(nullif(TG_ARGV[3], ''), '{}')::jsonb;
  v_timeout integer := coalesce(nullif(TG_ARGV[4], ''), '5000')::integer;
  v_request_id bigint;
BEGIN
  IF v_method = 'POST' THEN
    v_request_id := hookline.http_post(
      v_url,
      jsonb_build_object('type', TG_OP, 'table', TG_TABLE_NAME, 'schema', TG_TABLE_SCHEMA,
                         'record', to_jsonb(NEW), 'old_record', to_jsonb(OLD)),
      v_params, v_headers, v_timeout);
  ELSIF v_method = 'GET' THEN
    v_request_id := hookline.http_get(v_url, v_params, v_headers, v_timeout);
  ELSE
    RAISE EXCEPTION 'supabase_functions.http_request: method must be GET or POST, got %%', quote_literal(TG_ARGV[1])
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO supabase_functions.hooks (hook_table_id, hook_name, request_id)
  VALUES (TG_RELID, TG_NAME, v_request_id);
  -- The dashboard's triggers run AFTER the change, which ignores what a trigger returns.
  RETURN NEW;
END
$body$$f$, CASE WHEN security_definer THEN 'SECURITY DEFINER' ELSE '' END)
$def$;

CREATE FUNCTION hookline.install_supabase_webhooks() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_function constant text := 'supabase_functions.http_request()';
  v_oid oid := to_regprocedure('supabase_functions.http_request()');
  v_definition text;
  v_security_definer boolean;
BEGIN
  IF v_oid IS NULL THEN
    RAISE EXCEPTION 'hookline.install_supabase_webhooks: there is no function supabase_functions.http_request()'
      USING ERRCODE = 'undefined_function',
            HINT = 'Supabase creates it when database webhooks are enabled (Database > Webhooks in the dashboard).';
  END IF;
  SELECT pg_get_functiondef(p.oid), p.prosecdef INTO v_definition, v_security_definer
    FROM pg_catalog.pg_proc AS p WHERE p.oid = v_oid;
  IF v_definition LIKE '%Installed by hookline.install_supabase_webhooks()%' THEN
    RAISE NOTICE 'hookline.install_supabase_webhooks: already installed; nothing changed';
    RETURN;
  END IF;
  -- A kept definition that is no longer current (Supabase redefined the function since) is replaced by
  -- the current one: that is what switching back must restore.
  INSERT INTO hookline.replaced_functions (function_name, original_definition)
  VALUES (v_function, v_definition)
  ON CONFLICT (function_name) DO UPDATE
    SET original_definition = excluded.original_definition, replaced_at = now();
  EXECUTE hookline.supabase_http_request_definition(v_security_definer);
END $$;

CREATE FUNCTION hookline.uninstall_supabase_webhooks() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_function constant text := 'supabase_functions.http_request()';
  v_original text;
  v_current text;
BEGIN
  SELECT r.original_definition INTO v_original FROM hookline.replaced_functions AS r WHERE r.function_name = v_function;
  IF NOT FOUND THEN
    RAISE NOTICE 'hookline.uninstall_supabase_webhooks: not installed; nothing changed';
    RETURN;
  END IF;
  IF to_regprocedure(v_function) IS NOT NULL THEN
    v_current := pg_get_functiondef(to_regprocedure(v_function));
    IF v_current NOT LIKE '%Installed by hookline.install_supabase_webhooks()%' THEN
      -- Redefined by someone else since the install: theirs is newer than the one kept here.
      DELETE FROM hookline.replaced_functions WHERE function_name = v_function;
      RAISE NOTICE 'hookline.uninstall_supabase_webhooks: % was redefined since the install and is left as it is', v_function;
      RETURN;
    END IF;
  END IF;
  EXECUTE v_original;
  DELETE FROM hookline.replaced_functions WHERE function_name = v_function;
END $$;
