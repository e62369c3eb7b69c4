-- Waking sleeping workers with a NOTIFY on hookline_deliveries (an empty payload: a wake-up, never
-- data), sent only when no worker is polling (worker/polling-presence.ts): a NOTIFY serializes every
-- producer's commit, ~25 points of producer TPS when sent on every insert. PostgreSQL delivers one
-- per channel and payload per transaction however often it is called.
-- New messages: the functions that write them call the check themselves (hookline.send inline, the
-- others through hookline.wake_sleeping_workers below). As a statement trigger on hookline.messages
-- (migration 20261130090000_fanout_by_transaction, dropped by 20261130100000_wake_in_producers) the
-- same check cost producers ~9 points of their TPS, of which the trigger's call was ~4 (pgbench, 18:
-- 48.5 % of no-trigger TPS with the trigger, 52.5 % with the check in hookline.send, 57.8 % with no
-- check at all). New deliveries (fan-outs, replays, jobs): the statement trigger deliveries_notify, below.
-- The check, for the functions that write messages off the hot path of hookline.send, and for the
-- trigger below.
CREATE OR REPLACE FUNCTION hookline.wake_sleeping_workers() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers WHERE until > now()) THEN
    PERFORM pg_notify('hookline_deliveries', '');
  END IF;
END $$;

-- The statement trigger deliveries_notify's function (created in migration 20261123170000_write_path_v2,
-- its trigger re-made on the partitioned parent by 20261126130000_time_partitions, with the statement's
-- new rows as `inserted`): once per statement that writes deliveries (a fan-out, a replay, a job
-- batch), never on a producer's path. It wakes workers only when some of the new deliveries wait to be
-- claimed ('pending': an endpoint's overflow, an open circuit's wait, a replay): a fan-out's first
-- attempts are leased to the worker that wrote them, and a NOTIFY for those would wake every idle
-- worker for nothing. What it costs a fan-out on PostgreSQL 15: ~65 us a call (EXPLAIN ANALYZE), and
-- ~0.3 us a delivery for the rows copied into `inserted` (perf over a 50k drain).
CREATE OR REPLACE FUNCTION hookline.notify_claimable_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE state = 'pending') THEN
    PERFORM hookline.wake_sleeping_workers();
  END IF;
  RETURN NULL;
END $$;

-- No trigger's function since migration 20261130100000_wake_in_producers dropped messages_notify (it
-- was that trigger's): wakes sleeping workers after any statement, whatever it wrote.
CREATE OR REPLACE FUNCTION hookline.notify_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM hookline.wake_sleeping_workers();
  RETURN NULL;
END $$;
