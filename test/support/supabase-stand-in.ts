// A stand-in for what Supabase puts in a database for database webhooks, written from Supabase's
// documented behaviour, not from its source: the dashboard makes each webhook a row trigger on
// supabase_functions.http_request() with five arguments (url, method, headers as JSON text, params as
// JSON text, timeout in ms); the function sends {"type", "table", "schema", "record", "old_record"}
// (here to a stub, public.stub_request, that stands in for pg_net and records what it was asked) and
// records each request in supabase_functions.hooks (hook_table_id, hook_name, request_id).
// It also creates public.profiles, the table the tests hook.
export const SUPABASE_STAND_IN = `
  CREATE SCHEMA supabase_functions;
  CREATE TABLE supabase_functions.hooks (
    id bigserial PRIMARY KEY,
    hook_table_id integer NOT NULL,
    hook_name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    request_id bigint
  );
  -- Stands in for pg_net: records what it was asked to send.
  CREATE TABLE public.stub_requests (
    id bigserial PRIMARY KEY, method text, url text, body jsonb, params jsonb, headers jsonb, timeout_ms integer
  );
  CREATE FUNCTION public.stub_request(method text, url text, body jsonb, params jsonb, headers jsonb, timeout_ms integer)
  RETURNS bigint LANGUAGE sql AS $$
    INSERT INTO public.stub_requests (method, url, body, params, headers, timeout_ms)
    VALUES (method, url, body, params, headers, timeout_ms) RETURNING id
  $$;
  CREATE FUNCTION supabase_functions.http_request() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = supabase_functions AS $$
  DECLARE
    request_id bigint;
    payload jsonb;
  BEGIN
    payload := jsonb_build_object('old_record', OLD, 'record', NEW, 'type', TG_OP, 'table', TG_TABLE_NAME,
                                  'schema', TG_TABLE_SCHEMA);
    IF TG_ARGV[1] NOT IN ('GET', 'POST') THEN
      RAISE EXCEPTION 'method argument % is invalid', TG_ARGV[1];
    END IF;
    request_id := public.stub_request(TG_ARGV[1], TG_ARGV[0],
                                      CASE WHEN TG_ARGV[1] = 'POST' THEN payload END,
                                      TG_ARGV[3]::jsonb, TG_ARGV[2]::jsonb, TG_ARGV[4]::integer);
    INSERT INTO supabase_functions.hooks (hook_table_id, hook_name, request_id) VALUES (TG_RELID, TG_NAME, request_id);
    RETURN NEW;
  END $$;
  COMMENT ON FUNCTION supabase_functions.http_request() IS 'the stand-in';
  CREATE TABLE public.profiles (id integer PRIMARY KEY, name text NOT NULL);
`;

/** A trigger as the dashboard creates one for a webhook. */
export function dashboardWebhook(
  name: string,
  table: string,
  args: [url: string, method: string, headers: string, params: string, timeout: string],
) {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "''")}'`).join(', ');
  return `CREATE TRIGGER ${name} AFTER INSERT OR UPDATE OR DELETE ON public.${table}
            FOR EACH ROW EXECUTE FUNCTION supabase_functions.http_request(${quoted})`;
}
