-- NOTIFY only when no worker is already looking. A transaction that has sent NOTIFY takes a
-- database-wide lock at commit and holds it through its WAL flush, so every producer calling
-- hookline.send committed one after the other: 10 pgbench clients inserting into a table with the
-- hookline.send trigger ran at 710 TPS with the NOTIFY and 1,582 without it (no worker running, 2 cores,
-- synchronous_commit on).
-- A worker that found work in the last second polls every few milliseconds instead of waiting for a
-- notification, and says so here (renewing `until` while it does); while such a row is live, the
-- trigger skips the NOTIFY. A worker that crashed stops renewing, and producers notify again after
-- `until`. UNLOGGED: this is a hint about live processes, worthless after a crash or on a replica.
CREATE UNLOGGED TABLE hookline.polling_workers (
  worker_id  text PRIMARY KEY,
  until      timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION hookline.notify_deliveries() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM hookline.polling_workers WHERE until > now()) THEN
    PERFORM pg_notify('hookline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
