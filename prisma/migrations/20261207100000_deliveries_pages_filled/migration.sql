-- Deliveries' pages are filled again (the default fillfactor, 100): half of each page was kept free
-- (migration 20261124110000_hot_first_attempts) so that the update recording a first attempt's result
-- stayed HOT, and since migration 20261206090000_first_attempts_written_once that update is gone: a
-- first attempt's row is inserted with its outcome. What is still updated in place is a retry's row
-- (its claim, its result), and those change claimable_at, which the claim index holds, so they were
-- not HOT at any fillfactor. Measured (bench/README.md): 10k drains with 10 % of requests failing at
-- 50 and at 100 made the same share of HOT updates (0.09-0.10 per event) and the same WAL, and
-- 100,000 rows took 6,667 pages at 50 against 3,226 at 100.
-- Each period keeps what it was made with for the pages it has; from here new pages are filled. No
-- rewrite: only the storage parameter changes (SHARE UPDATE EXCLUSIVE, producers do not wait).
DO $$
DECLARE
  v_period record;
BEGIN
  FOR v_period IN
    SELECT c.relname
      FROM pg_class AS c
     WHERE c.relnamespace = 'hookline'::regnamespace
       AND c.relkind = 'r'
       AND c.relname LIKE 'deliveries\_%'
       AND c.reloptions IS NOT NULL
       AND EXISTS (SELECT 1 FROM unnest(c.reloptions) AS o WHERE o LIKE 'fillfactor=%')
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I RESET (fillfactor)', v_period.relname);
  END LOOP;
END $$;
