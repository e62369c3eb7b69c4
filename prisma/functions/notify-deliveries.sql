-- Waking sleeping workers with a NOTIFY on hookline_deliveries (an empty payload: a wake-up, never
-- data), sent only when no worker is polling (worker/polling-presence.ts): a NOTIFY serializes every
-- producer's commit, ~25 points of producer TPS when sent on every insert. PostgreSQL delivers one
-- per channel and payload per transaction however often it is called.
-- New messages: the functions that write them call the check themselves (hookline.send inline, the
-- others through hookline.wake_sleeping_workers below). As a statement trigger on hookline.messages
-- (migration 20261130090000_fanout_by_transaction, dropped by 20261130100000_wake_in_producers) the
-- same check cost producers ~9 points of their TPS, of which the trigger's call was ~4 (pgbench, 18:
-- 48.5 % of no-trigger TPS with the trigger, 52.5 % with the check in hookline.send, 57.8 % with no
-- check at all). New deliveries (replays, jobs): the statement trigger deliveries_notify, below.
-- The check, for the functions that write messages off the hot path of hookline.send, and for the
-- trigger below.
CREATE OR REPLACE FUNCTION hookline.wake_sleeping_workers() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers WHERE until > now()) THEN
    PERFORM pg_notify('hookline_deliveries', '');
  END IF;
END $$;

-- deliveries_notify's function: once per statement that writes deliveries (a fan-out, a replay, a job
-- batch), never on a producer's path.
CREATE OR REPLACE FUNCTION hookline.notify_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM hookline.wake_sleeping_workers();
  RETURN NULL;
END $$;
