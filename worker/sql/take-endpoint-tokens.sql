-- Parameters: $1 endpointIds, $2 wanted, $3 ratesPerSecond.
-- Takes up to $2[i] tokens from the bucket of endpoint $1[i], limited to $3[i] requests a second with
-- bursts of one second's worth, for every worker at once (migration 20261125160000_endpoint_rate_buckets).
-- Returns how many were granted and how many tokens are left (a fraction: the next whole token comes in
-- (1 - tokens) / rate seconds). One statement per dispatched batch, for its limited endpoints only.
-- A bucket refills from its last take's time at the endpoint's current rate, up to one second's worth;
-- a new bucket starts full. clock_timestamp(), not now(): the statement's own time is the take's.
-- Crash cost: none; a lost bucket starts full again.
INSERT INTO hookline.endpoint_rate_buckets AS b (endpoint_id, tokens, rate, wanted, granted, updated_at)
SELECT w.endpoint_id, w.rate - least(w.wanted, floor(w.rate)), w.rate, w.wanted, least(w.wanted, floor(w.rate)),
       clock_timestamp()
  FROM unnest($1::text[], $2::int[], $3::float8[]) AS w(endpoint_id, wanted, rate)
ON CONFLICT (endpoint_id) DO UPDATE
   SET granted = least(excluded.wanted,
                       floor(least(excluded.rate,
                                   b.tokens + excluded.rate * greatest(0, extract(epoch FROM excluded.updated_at - b.updated_at))))),
       tokens = least(excluded.rate,
                      b.tokens + excluded.rate * greatest(0, extract(epoch FROM excluded.updated_at - b.updated_at)))
                - least(excluded.wanted,
                        floor(least(excluded.rate,
                                    b.tokens + excluded.rate * greatest(0, extract(epoch FROM excluded.updated_at - b.updated_at))))),
       rate = excluded.rate,
       wanted = excluded.wanted,
       -- A take that waited for another's row lock was timed before it: keep the later time, or the
       -- next take would refill the wait twice.
       updated_at = greatest(b.updated_at, excluded.updated_at)
RETURNING b.endpoint_id, b.granted, b.tokens, b.rate
