-- hookline.endpoint_takes(endpoint_id, event_types, event_type, target_endpoint_id): whether an endpoint
-- gets a delivery of a message: the message is aimed at it (hookline.http_post's target_endpoint_id), or
-- it is aimed at none and the endpoint subscribes to its event type (an empty list: to all). Whether the
-- endpoint is enabled is not part of it: the fan-out leaves disabled endpoints out, and what reads a
-- fan-out batch again (the release of an expired batch, the unfinished deliveries) must not.
-- The rule of worker/sql/fan-out-messages.sql, which states it as two joins (one by the app's endpoints,
-- one by primary key) for its plan; every other reader calls this. Inlined: a SQL expression.
CREATE OR REPLACE FUNCTION hookline.endpoint_takes(endpoint_id text, event_types text[], event_type text,
                                                   target_endpoint_id text)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(endpoint_id OPERATOR(pg_catalog.=) target_endpoint_id, false)
      OR (target_endpoint_id IS NULL
          AND (pg_catalog.cardinality(event_types) OPERATOR(pg_catalog.=) 0
               OR event_type OPERATOR(pg_catalog.=) ANY (event_types)))
$$;
