-- Messages are keyed by (app_id, id), and their (app_id, created_at) index goes (issue 22: <= 1,000 B of
-- WAL per event; producers write every index entry of their message). Every read of one message names
-- its app (the API's routes, the deliveries that name it, the idempotency keys), and an app's messages
-- newest first are its part of the key read backwards: an id begins with its millisecond
-- (hookline.new_id), so id order is time order, and the list, the backfill and the search walk the key
-- instead of created_at. The key's entry grows by an app id; the entry gone held an app id and a
-- timestamp (bench/README.md: the index measured 106 B of WAL per event on PostgreSQL 15, the app id in
-- the key ~37 B by estimate).
--
-- Periods retention detached and has not dropped yet change too, so that the maintenance can still
-- attach one back: a table has one primary key, and ATTACH would add the parent's beside its own.
-- A period whose DETACH ... CONCURRENTLY was cut short is finished before the migrations run
-- (lib/database/migrate.ts, finishPendingDetaches).
-- Cost: the key is built again on every period while writers wait (one read of every message).
DO $$
DECLARE
  v_loose record;
BEGIN
  FOR v_loose IN
    SELECT c.relname, k.conname,
           (SELECT string_agg(format('DROP INDEX hookline.%I', x.relname), '; ')
              FROM pg_index AS i JOIN pg_class AS x ON x.oid = i.indexrelid
             WHERE i.indrelid = c.oid
               AND pg_get_indexdef(i.indexrelid) LIKE '% (app_id, created_at DESC)') AS drop_time_index
      FROM pg_class AS c
      JOIN pg_constraint AS k ON k.conrelid = c.oid AND k.contype = 'p'
     WHERE c.relnamespace = 'hookline'::regnamespace
       AND c.relkind = 'r'
       AND NOT c.relispartition
       AND c.relname LIKE 'messages\_%'
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I DROP CONSTRAINT %I, ADD CONSTRAINT %I PRIMARY KEY (app_id, id)',
                   v_loose.relname, v_loose.conname, v_loose.conname);
    IF v_loose.drop_time_index IS NOT NULL THEN
      EXECUTE v_loose.drop_time_index;
    END IF;
  END LOOP;
END $$;

ALTER TABLE hookline.messages DROP CONSTRAINT messages_pkey;
ALTER TABLE hookline.messages ADD CONSTRAINT messages_pkey PRIMARY KEY (app_id, id);
DROP INDEX hookline.messages_app_id_created_at_idx;
