-- The statement-level trigger messages_notify's NOTIFY (an empty payload: a wake-up, never data), on
-- every insert into hookline.messages (migration 20261130090000_fanout_by_transaction: a new message
-- has no queue row to wake workers with any more). Sent only when no worker is polling (worker/polling-presence.ts): a NOTIFY serializes every producer's commit, ~25
-- points of producer TPS when sent on every insert.
CREATE OR REPLACE FUNCTION hookline.notify_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers WHERE until > now()) THEN
    PERFORM pg_notify('hookline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
