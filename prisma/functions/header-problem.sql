-- hookline.header_problem(name, value): why a request header cannot be sent, or NULL:
-- lib/domain/webhooks/header-problem.ts in SQL, with its words (test/api/ways-in-agree.test.ts runs the
-- same headers through both). Reserved names and duplicates are judged by the caller (hookline.http_post
-- drops the former). Called by hookline.http_post and hookline.enqueue_http_request; first defined in
-- migration 20261125101000_http_post_validation.
-- PostgreSQL text cannot hold NUL, so the control characters start at 0x01. A character above U+00FF
-- cannot be sent either: an HTTP/1.1 header value is Latin-1 bytes, and undici refuses it while building
-- the request (which also left the endpoint's connection marked busy: max_concurrency such attempts
-- jammed every later delivery to the endpoint).
CREATE OR REPLACE FUNCTION hookline.header_problem(name text, value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE
    WHEN length(name) > 256 THEN 'name must be at most 256 characters'
    WHEN name !~ '^[!#$%&''*+.^_`|~0-9A-Za-z-]+$'
      THEN 'is not a valid header name (letters, digits and !#$%&''*+.^_`|~- only)'
    WHEN length(value) > 4096 THEN 'must be at most 4096 characters'
    WHEN value ~ '[\r\n]' THEN 'must not contain CR or LF'
    WHEN value ~ '[\x01-\x08\x0b-\x1f\x7f]' THEN 'must not contain control characters'
    WHEN value ~ '[^\x01-\xff]'
      THEN 'must not contain characters above U+00FF (an HTTP header value is Latin-1 bytes: percent-encode or base64 other text)'
  END
$$;
