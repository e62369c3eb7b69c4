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

-- hookline.add_latency_histograms, the same way: the sum of two histograms, bucket by bucket, and
-- the transition function of hookline.sum_latency_histograms (migration 20261123130000_overview_rollups).
-- As a SQL function over unnest it was planned again on each call too: every flush calls it in the
-- four rollup upserts it adds to and once per row the three coarser rollups sum, 0.14 ms a call on
-- PostgreSQL 15 (pgbench, over a SELECT 1), and the dashboard's sums over a range of rollup rows paid
-- 34 us a row (20,000 rows in 690 ms; 222 ms as this loop). Same answer as the set-based definition
-- for the one-dimensional arrays from 1 that hookline.latency_histogram makes (the loop reads a[i]
-- from 1; unnest read elements in storage order): a position missing from one array is NULL in the
-- sum, two empty arrays sum to NULL (test/sql/latency-histogram.test.ts).
CREATE OR REPLACE FUNCTION hookline.add_latency_histograms(a bigint[], b bigint[]) RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  buckets constant integer := greatest(cardinality(a), cardinality(b));
  sums bigint[];
BEGIN
  IF buckets = 0 THEN
    RETURN NULL;
  END IF;
  sums := array_fill(NULL::bigint, ARRAY[buckets]);
  FOR i IN 1 .. buckets LOOP
    sums[i] := a[i] + b[i];
  END LOOP;
  RETURN sums;
END $$;
