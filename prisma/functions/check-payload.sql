-- hookline.check_payload(caller, payload): raises when a payload is larger than
-- hookline.max_payload_bytes() as JSON text, the REST API's limit (HOOKLINE_MAX_PAYLOAD_BYTES,
-- lib/database/apply-payload-limit.ts). Always its length as text: its stored size (pg_column_size)
-- is no bound on it (prisma/functions/send.sql says why).
-- Called from hookline.send, which runs with its owner's rights under the caller's search_path: every
-- name is qualified, as there. First defined in migration 20261123170000_write_path_v2.
CREATE OR REPLACE FUNCTION hookline.check_payload(caller text, payload jsonb) RETURNS void
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_bytes pg_catalog.int8;
BEGIN
  v_bytes := pg_catalog.octet_length(payload::pg_catalog.text);
  IF v_bytes OPERATOR(pg_catalog.>) hookline.max_payload_bytes() THEN
    RAISE EXCEPTION '%: payload is % bytes as JSON, more than the limit of % bytes', caller, v_bytes,
      hookline.max_payload_bytes()
      USING ERRCODE = 'program_limit_exceeded',
            HINT = 'Send a reference to large data instead, or raise HOOKLINE_MAX_PAYLOAD_BYTES.';
  END IF;
END $$;
