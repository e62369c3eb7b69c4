-- Parameters: $1 endpointIds.
-- Endpoint settings and their currently valid signing secrets, newest first, for the worker's
-- short-lived cache. During a rotation's grace period the old secret is still valid and signs too.
-- The retry policy is resolved here: the endpoint's own, else its app's default (an empty schedule or
-- a NULL timeout inherits); NULL or empty left over means the worker's HOOKLINE_* default. The app
-- join is by primary key, once per endpoint per cache refresh, never per delivery.
-- raw_body: an operational endpoint with a payload template (migration 20261124130000): its messages'
-- payloads were rendered into the whole body (Slack's {"text": ...}) when the event was emitted.
-- method: POST, or GET / DELETE for hookline.http_get's and hookline.http_delete's implicit endpoints.
-- rate_limit_per_second: requests a second for all workers together (take-endpoint-tokens.sql).
SELECT e.id, e.app_id, e.url, e.method, e.enabled, e.max_concurrency, e.rate_limit_per_second, e.headers, e.implicit,
       coalesce(e.timeout_ms, a.timeout_ms) AS timeout_ms,
       CASE WHEN cardinality(e.retry_schedule_ms) > 0 THEN e.retry_schedule_ms ELSE a.retry_schedule_ms END
         AS retry_schedule_ms,
       coalesce(array_agg(s.secret ORDER BY s.created_at DESC) FILTER (WHERE s.id IS NOT NULL), '{}') AS secrets,
       EXISTS (SELECT 1 FROM hookline.operational_endpoints AS o
                WHERE o.endpoint_id = e.id AND o.payload_template IS NOT NULL) AS raw_body
  FROM hookline.endpoints AS e
  JOIN hookline.apps AS a ON a.id = e.app_id
  LEFT JOIN hookline.endpoint_secrets AS s
    ON s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > now())
 WHERE e.id = ANY($1::text[])
 GROUP BY e.id, a.id
