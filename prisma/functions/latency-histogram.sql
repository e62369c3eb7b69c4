-- hookline.latency_histogram as a loop in PL/pgSQL (issue 11: the cost of a flush). Every flush calls
-- it for each group of attempts it adds to the rollups, and PostgreSQL before 18 plans a SQL
-- function's query afresh on every call: in a 20k drain on PostgreSQL 15, 268 calls were planned 268
-- times, 41 ms of planning for 38 ms of work (pg_stat_statements, track_planning). The loop has no
-- query to plan (its expressions are prepared once per session): width_bucket per duration into an
-- array of counts. Same answer for every input,
-- including NULL durations (not counted) and a NULL or empty array (all zeros):
-- test/sql/latency-histogram.test.ts compares it with the set-based definition it replaces.
CREATE OR REPLACE FUNCTION hookline.latency_histogram(durations_ms double precision[]) RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  bounds constant double precision[] := hookline.latency_bucket_bounds_ms();
  -- Bucket 0 (below the first bound) to cardinality(bounds) (at or above the last), 1-based here.
  counts bigint[] := array_fill(0::bigint, ARRAY[cardinality(bounds) + 1]);
  duration double precision;
  bucket integer;
BEGIN
  IF durations_ms IS NULL THEN
    RETURN counts;
  END IF;
  FOREACH duration IN ARRAY durations_ms LOOP
    CONTINUE WHEN duration IS NULL;
    bucket := width_bucket(duration, bounds) + 1;
    counts[bucket] := counts[bucket] + 1;
  END LOOP;
  RETURN counts;
END $$;
