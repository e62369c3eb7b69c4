-- Message and delivery ids are stored as uuid: hookline.messages.id, hookline.deliveries.id, and
-- every column that names a message or a delivery (deliveries.message_id, attempts' delivery_id and
-- message_id, idempotency_keys.message_id, issue_deliveries.delivery_id, and the fan-out's cursor and
-- batches), 16 bytes each instead of 37.
--
-- Why: every event writes a message row and a delivery row, and their ids fill three of the four
-- index entries the two rows cost. Stored as text they were 149 B of WAL per event more: 100,000
-- rows of each shaped as Hookline's, written both ways, 1,050 against 901 B per event on
-- PostgreSQL 18, 1,049 against 900 on 15 (bench/experiments/ids-as-uuid-wal.sql; issue 22's target
-- is 1,000 B end to end). Measured after: 100k drains write 906-911 B per event on 18 instead of
-- 1,062-1,066, and 914-915 on 15 instead of 1,094-1,097 (bench/README.md).
--
-- What callers see does not change: a message's id is still 'msg_' and 32 hex digits, a delivery's
-- 'dlv_' and 32, and those digits are the uuid's (hookline.public_id, hookline.uuid_of: both ways
-- without a lookup; lib/database/ids.ts in the application). Ids inside JSON (jobs' filters,
-- operational events' payloads) stay public. An attempt's own id stays text ('atmpt_'): it is the
-- attempts' partition key, and attempts are written per failure, not per event. A uuid compares byte
-- by byte, so ids keep their order, and the 12 hex digits of milliseconds that begin them keep their
-- time partition.
--
-- How: as migration 20261203090000_ids_in_c_collation did for the collation, since a partition key's
-- type cannot change in place: messages and deliveries each get a new parent, renamed in, with the
-- same columns (the ids as uuid), defaults, constraints, indexes (their names too), trigger, owner,
-- grants, publications, comment, statistics targets and trigger modes; every period is detached, its
-- ids converted (a rewrite of the period and its indexes), and attached with its bounds as uuids.
-- Attempts, not keyed by these ids, change in place. Periods retention detached and has not dropped
-- yet are converted too, with their CHECKs. The views over these tables are dropped first and created
-- again from their own definitions, with their options, owners, grants and comments; one that no
-- longer type-checks over uuid ids refuses the migration, naming it. What a new parent could not
-- carry refuses the migration before any change, as that migration's did.
-- Cost: the migration holds its tables exclusively (producers' hookline.send waits) while it rewrites
-- them and their indexes: 25 s for 1,000,000 messages with their deliveries and 100,000 attempts
-- (PostgreSQL 18; 711 MB before, 526 MB after).

-- The functions the views below call, in their uuid form (prisma/functions/new-id.sql and
-- deliveries-of-message.sql hold the current bodies, applied after every migration); the text forms go
-- with the views that use them.
CREATE OR REPLACE FUNCTION hookline.new_uuid() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT pg_catalog.substr(hookline.new_id(''), 2)::pg_catalog.uuid
$$;
CREATE OR REPLACE FUNCTION hookline.public_id(prefix text, id uuid) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT prefix OPERATOR(pg_catalog.||) '_' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.uuid_send(id), 'hex')
$$;
CREATE OR REPLACE FUNCTION hookline.uuid_of(public_id text) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- One expression, no FROM: a SQL function with a FROM clause is never inlined.
  SELECT CASE WHEN pg_catalog.replace(pg_catalog.substr(public_id, pg_catalog.strpos(public_id, '_') OPERATOR(pg_catalog.+) 1), '-', '')
                   OPERATOR(pg_catalog.~) '^[0-9a-f]{32}$'
              THEN pg_catalog.replace(pg_catalog.substr(public_id, pg_catalog.strpos(public_id, '_') OPERATOR(pg_catalog.+) 1), '-', '')::pg_catalog.uuid
         END
$$;
CREATE OR REPLACE FUNCTION hookline.delivery_id(message_id uuid, endpoint_id text) RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT (pg_catalog.substr(pg_catalog.encode(pg_catalog.uuid_send(message_id), 'hex'), 1, 12)
      OPERATOR(pg_catalog.||) pg_catalog.substr(pg_catalog.encode(pg_catalog.sha256(pg_catalog.textsend(
           hookline.public_id('msg', message_id) OPERATOR(pg_catalog.||) '/' OPERATOR(pg_catalog.||) endpoint_id)), 'hex'), 1, 20)
      )::pg_catalog.uuid
$$;
-- prisma/functions/fanout-snapshot.sql's, for hookline.http_collect_response until that file is applied.
CREATE OR REPLACE FUNCTION hookline.fanned_out(written_by xid8, id uuid, through pg_snapshot, partial_xid xid8,
                                               partial_through_id uuid)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT pg_catalog.pg_visible_in_snapshot(written_by, through)
         OR coalesce(written_by = partial_xid AND id <= partial_through_id, false)
$$;
CREATE OR REPLACE FUNCTION hookline.delivery_ids_from(message_id uuid) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN substr(encode(uuid_send(message_id), 'hex'), 1, 12) < hookline.legacy_ids_end() THEN '000000000000'
               ELSE substr(encode(uuid_send(message_id), 'hex'), 1, 12) END || '00000000000000000000')::uuid
$$;
CREATE OR REPLACE FUNCTION hookline.delivery_ids_before(message_id uuid) RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN substr(encode(uuid_send(message_id), 'hex'), 1, 12) < hookline.legacy_ids_end() THEN hookline.legacy_ids_end()
               ELSE lpad(to_hex(('x' || substr(encode(uuid_send(message_id), 'hex'), 1, 12))::bit(48)::bigint + 1), 12, '0')
          END || '00000000000000000000')::uuid
$$;

DO $$
DECLARE
  v_view record;
  v_views jsonb := '[]'::jsonb;
  v_table record;
  v_part record;
  v_check record;
  v_defs text[];
  v_checks text[];
  v_check_names text[] := '{}';
  v_statement text;
  v_refused text[] := '{}';
  -- The id columns that become uuid, by table, and how a period's bound or CHECK literal converts:
  -- 'msg_' or 'dlv_' and 12 hex digits of milliseconds become the uuid of those digits, zeros after.
  v_converted constant jsonb := '{"messages": ["id"], "deliveries": ["id", "message_id"]}';
  v_literal constant text := $re$'(?:msg|dlv)_([0-9a-f]{12})'(?:::text)?(?: COLLATE "C")?$re$;
BEGIN
  -- 1. Views that read messages or deliveries, directly or through another view, deepest last.
  FOR v_view IN
    WITH RECURSIVE dependent AS (
      SELECT DISTINCT r.ev_class AS view_oid, 1 AS depth
        FROM pg_depend AS d
        JOIN pg_rewrite AS r ON r.oid = d.objid
       WHERE d.classid = 'pg_rewrite'::regclass
         AND d.refobjid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass, 'hookline.attempts'::regclass,
                            'hookline.idempotency_keys'::regclass, 'hookline.issue_deliveries'::regclass,
                            'hookline.fanout_cursor'::regclass, 'hookline.fanout_batches'::regclass)
         AND r.ev_class <> d.refobjid
      UNION
      SELECT r.ev_class, dependent.depth + 1
        FROM dependent
        JOIN pg_depend AS d ON d.refobjid = dependent.view_oid AND d.classid = 'pg_rewrite'::regclass
        JOIN pg_rewrite AS r ON r.oid = d.objid
       WHERE r.ev_class <> dependent.view_oid
    )
    SELECT c.oid, n.nspname, c.relname, c.relkind, max(dependent.depth) AS depth,
           pg_has_role(current_user, c.relowner, 'MEMBER') AS ours,
           pg_get_viewdef(c.oid) AS definition, c.reloptions, pg_get_userbyid(c.relowner) AS owner,
           array(SELECT format('GRANT %s%s ON %I.%I TO %s%s', g.privilege_type,
                               CASE WHEN g.column_name IS NULL THEN '' ELSE format(' (%I)', g.column_name) END,
                               n.nspname, c.relname,
                               CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(g.grantee)) END,
                               CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END)
                   FROM (SELECT NULL::name AS column_name, a.* FROM aclexplode(c.relacl) AS a
                         UNION ALL
                         SELECT col.attname, a.*
                           FROM pg_attribute AS col, aclexplode(col.attacl) AS a
                          WHERE col.attrelid = c.oid AND col.attnum > 0) AS g
                  WHERE g.grantee <> c.relowner
                 UNION ALL
                 SELECT format('COMMENT ON VIEW %I.%I IS %L', n.nspname, c.relname, obj_description(c.oid, 'pg_class'))
                  WHERE obj_description(c.oid, 'pg_class') IS NOT NULL
                 UNION ALL
                 SELECT format('COMMENT ON COLUMN %I.%I.%I IS %L', n.nspname, c.relname, col.attname,
                               col_description(c.oid, col.attnum))
                   FROM pg_attribute AS col
                  WHERE col.attrelid = c.oid AND col.attnum > 0 AND col_description(c.oid, col.attnum) IS NOT NULL
           ) AS restore
      FROM dependent
      JOIN pg_class AS c ON c.oid = dependent.view_oid
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('v', 'm')
     GROUP BY c.oid, n.nspname, c.relname
     ORDER BY max(dependent.depth)
  LOOP
    IF v_view.relkind = 'm' THEN
      v_refused := v_refused || format('materialized view %I.%I reads message or delivery ids', v_view.nspname, v_view.relname);
    ELSIF NOT v_view.ours THEN
      v_refused := v_refused || format('view %I.%I reads message or delivery ids and belongs to %I, whose views this role may not drop',
                                       v_view.nspname, v_view.relname, v_view.owner);
    END IF;
    v_views := v_views || jsonb_build_object(
      'schema', v_view.nspname, 'name', v_view.relname, 'depth', v_view.depth, 'definition', v_view.definition,
      'options', coalesce(array_to_string(v_view.reloptions, ', '), ''), 'owner', v_view.owner,
      'restore', to_jsonb(v_view.restore));
  END LOOP;
  SELECT v_refused || coalesce(array_agg(problem ORDER BY problem), '{}') INTO v_refused FROM (
    SELECT format('foreign key %I of %s references %s', con.conname, con.conrelid::regclass, con.confrelid::regclass) AS problem
      FROM pg_constraint AS con
     WHERE con.contype = 'f' AND con.confrelid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass)
    UNION ALL
    SELECT format('row-level security or a policy on %s', c.oid::regclass)
      FROM pg_class AS c
     WHERE c.oid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass)
       AND (c.relrowsecurity OR EXISTS (SELECT 1 FROM pg_policy AS pol WHERE pol.polrelid = c.oid))
    UNION ALL
    SELECT format('function %s depends on %s or its row type', d.objid::regprocedure, c.oid::regclass)
      FROM pg_depend AS d JOIN pg_class AS c ON d.refobjid IN (c.oid, c.reltype)
     WHERE d.classid = 'pg_proc'::regclass AND c.oid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass)
    UNION ALL
    SELECT format('column privileges on %s.%I', c.oid::regclass, a.attname)
      FROM pg_class AS c JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0
     WHERE c.oid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass) AND a.attacl IS NOT NULL
    UNION ALL
    SELECT format('publication %I filters the rows or columns of %s', pub.pubname, c.oid::regclass)
      FROM pg_publication_rel AS pr
      JOIN pg_publication AS pub ON pub.oid = pr.prpubid
      JOIN pg_class AS c ON c.oid = pr.prrelid
     WHERE c.oid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass)
       AND (to_jsonb(pr) ->> 'prqual' IS NOT NULL OR to_jsonb(pr) ->> 'prattrs' IS NOT NULL)
  ) AS problems;
  IF cardinality(v_refused) > 0 THEN
    RAISE EXCEPTION 'this migration gives hookline.messages and deliveries new parent tables (their ids become uuid) and cannot carry these over: %. Drop them (a view of another role: or migrate as a superuser), migrate, then create them again.',
      array_to_string(v_refused, '; ');
  END IF;

  FOR v_view IN SELECT * FROM jsonb_to_recordset(v_views) AS v (schema text, name text, depth int)
                 ORDER BY depth DESC
  LOOP
    EXECUTE format('DROP VIEW %I.%I', v_view.schema, v_view.name);
  END LOOP;
  DROP FUNCTION hookline.delivery_id(text, text);
  DROP FUNCTION hookline.delivery_ids_from(text);
  DROP FUNCTION hookline.delivery_ids_before(text);
  DROP FUNCTION IF EXISTS hookline.fanned_out(xid8, text, pg_snapshot, xid8, text);
  DROP FUNCTION IF EXISTS hookline.first_attempts_in_flight(text, text[]);
  DROP FUNCTION IF EXISTS hookline.first_attempts_in_flight_to(text, text);

  -- 2. Tables not keyed by these ids: their columns change in place.
  ALTER TABLE hookline.fanout_cursor ALTER COLUMN partial_through_id TYPE uuid USING hookline.uuid_of(partial_through_id);
  ALTER TABLE hookline.fanout_batches
    ALTER COLUMN after_partial_id TYPE uuid USING hookline.uuid_of(after_partial_id),
    ALTER COLUMN through_partial_id TYPE uuid USING hookline.uuid_of(through_partial_id);
  ALTER TABLE hookline.idempotency_keys ALTER COLUMN message_id TYPE uuid USING hookline.uuid_of(message_id);
  ALTER TABLE hookline.issue_deliveries ALTER COLUMN delivery_id TYPE uuid USING hookline.uuid_of(delivery_id);
  -- Attempts: each period's same-time CHECK reads delivery_id as text, so it goes first and comes back
  -- in uuid terms (prisma/functions/time-partitions.sql, hookline.same_time_check); the periods
  -- retention detached change with it.
  FOR v_part IN
    SELECT c.oid, c.relname, true AS relispartition
      FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'hookline.attempts'::regclass
    UNION ALL
    SELECT c.oid, c.relname, false
      FROM pg_class AS c
     WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
       AND c.relname ~ '^attempts_(p\d{8}t\d{4}|before_\d{8}t\d{4}|overflow)$'
  LOOP
    IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = v_part.oid AND conname = v_part.relname || '_same_time') THEN
      EXECUTE format('ALTER TABLE hookline.%I DROP CONSTRAINT %I', v_part.relname, v_part.relname || '_same_time');
      v_check_names := v_check_names || v_part.relname::text;
    END IF;
    IF NOT v_part.relispartition THEN
      EXECUTE format('ALTER TABLE hookline.%I ALTER COLUMN delivery_id TYPE uuid USING hookline.uuid_of(delivery_id), '
                     'ALTER COLUMN message_id TYPE uuid USING hookline.uuid_of(message_id)', v_part.relname);
    END IF;
  END LOOP;
  ALTER TABLE hookline.attempts
    ALTER COLUMN delivery_id TYPE uuid USING hookline.uuid_of(delivery_id),
    ALTER COLUMN message_id TYPE uuid USING hookline.uuid_of(message_id);
  FOREACH v_statement IN ARRAY v_check_names LOOP
    EXECUTE format('ALTER TABLE hookline.%I ADD CONSTRAINT %I CHECK (substr(id, 7, 12) = encode(substring(uuid_send(delivery_id) FROM 1 FOR 6), ''hex''))',
                   v_statement, v_statement || '_same_time');
  END LOOP;

  -- 3. Each table: a new parent, every period moved to it, and the periods detached by retention.
  FOR v_table IN
    SELECT c.oid, c.relname,
           (SELECT string_agg(format('ALTER COLUMN %I TYPE uuid USING hookline.uuid_of(%I)', col, col), ', ')
              FROM jsonb_array_elements_text(v_converted -> c.relname) AS col) AS alters
      FROM pg_class AS c
     WHERE c.oid IN ('hookline.messages'::regclass, 'hookline.deliveries'::regclass)
  LOOP
    -- What the new parent must have, read before the names move (as the collation migration did).
    SELECT array_agg(statement ORDER BY kind, name) INTO v_defs FROM (
      SELECT 1 AS kind, con.conname AS name,
             format('ALTER TABLE hookline.%I ADD CONSTRAINT %I %s', v_table.relname, con.conname,
                    pg_get_constraintdef(con.oid)) AS statement
        FROM pg_constraint AS con
       WHERE con.conrelid = v_table.oid AND con.contype IN ('p', 'u')
      UNION ALL
      SELECT 2, ic.relname, replace(pg_get_indexdef(i.indexrelid), ' ON ONLY ', ' ON ')
        FROM pg_index AS i
        JOIN pg_class AS ic ON ic.oid = i.indexrelid
       WHERE i.indrelid = v_table.oid
         AND NOT EXISTS (SELECT 1 FROM pg_constraint AS con WHERE con.conindid = i.indexrelid AND con.conrelid = v_table.oid)
      UNION ALL
      SELECT 3, t.tgname, pg_get_triggerdef(t.oid)
        FROM pg_trigger AS t
       WHERE t.tgrelid = v_table.oid AND NOT t.tgisinternal AND t.tgparentid = 0
      UNION ALL
      SELECT 4, '', format('ALTER TABLE hookline.%I OWNER TO %I', v_table.relname, pg_get_userbyid(c.relowner))
        FROM pg_class AS c
       WHERE c.oid = v_table.oid AND pg_get_userbyid(c.relowner) <> current_user
      UNION ALL
      SELECT 5, a.privilege_type,
             format('GRANT %s ON hookline.%I TO %s%s', a.privilege_type, v_table.relname,
                    CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END,
                    CASE WHEN a.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END)
        FROM pg_class AS c, aclexplode(c.relacl) AS a
       WHERE c.oid = v_table.oid AND a.grantee <> c.relowner
      UNION ALL
      SELECT 6, pub.pubname, format('ALTER PUBLICATION %I ADD TABLE hookline.%I', pub.pubname, v_table.relname)
        FROM pg_publication_rel AS pr JOIN pg_publication AS pub ON pub.oid = pr.prpubid
       WHERE pr.prrelid = v_table.oid
      UNION ALL
      SELECT 7, '', format('COMMENT ON TABLE hookline.%I IS %L', v_table.relname, obj_description(v_table.oid, 'pg_class'))
       WHERE obj_description(v_table.oid, 'pg_class') IS NOT NULL
      UNION ALL
      SELECT 8, a.attname, format('ALTER TABLE hookline.%I ALTER COLUMN %I SET STATISTICS %s', v_table.relname, a.attname,
                                  a.attstattarget)
        FROM pg_attribute AS a
       WHERE a.attrelid = v_table.oid AND a.attnum > 0 AND NOT a.attisdropped AND coalesce(a.attstattarget::int, -1) >= 0
      UNION ALL
      SELECT 9, t.tgname, format('ALTER TABLE hookline.%I %s TRIGGER %I', v_table.relname,
                                 CASE t.tgenabled WHEN 'D' THEN 'DISABLE' WHEN 'A' THEN 'ENABLE ALWAYS' ELSE 'ENABLE REPLICA' END,
                                 t.tgname)
        FROM pg_trigger AS t
       WHERE t.tgrelid = v_table.oid AND NOT t.tgisinternal AND t.tgparentid = 0 AND t.tgenabled <> 'O'
    ) AS parts;

    EXECUTE format('ALTER TABLE hookline.%I RENAME TO %I', v_table.relname, v_table.relname || '_text_ids');
    FOR v_part IN SELECT ic.oid, ic.relname FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
                   WHERE i.indrelid = v_table.oid
    LOOP
      EXECUTE format('ALTER INDEX hookline.%I RENAME TO %I', v_part.relname, 'text_ids_' || v_part.oid);
    END LOOP;
    -- The columns as they are, then the ids changed, in a scratch table (not a temporary one: some
    -- servers revoke TEMP): a partition key's type is fixed once the parent exists.
    EXECUTE format('CREATE TABLE hookline.uuid_template (LIKE hookline.%I INCLUDING ALL EXCLUDING INDEXES)',
                   v_table.relname || '_text_ids');
    EXECUTE 'ALTER TABLE hookline.uuid_template ALTER COLUMN id DROP DEFAULT';
    EXECUTE format('ALTER TABLE hookline.uuid_template %s', v_table.alters);
    EXECUTE 'ALTER TABLE hookline.uuid_template ALTER COLUMN id SET DEFAULT hookline.new_uuid()';
    EXECUTE format('CREATE TABLE hookline.%I (LIKE hookline.uuid_template INCLUDING ALL EXCLUDING INDEXES) PARTITION BY RANGE (id)',
                   v_table.relname);
    EXECUTE 'DROP TABLE hookline.uuid_template';
    FOREACH v_statement IN ARRAY v_defs LOOP
      EXECUTE v_statement;
    END LOOP;

    -- Its periods, attached (bound given) and detached by retention (no bound: they stay detached).
    FOR v_part IN
      SELECT c.oid, c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detach_pending
        FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
       WHERE i.inhparent = v_table.oid
      UNION ALL
      SELECT c.oid, c.relname, NULL, false
        FROM pg_class AS c
       WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
         AND c.relname ~ ('^' || v_table.relname || '_(p\d{8}t\d{4}|before_\d{8}t\d{4}|overflow)$')
    LOOP
      -- A DETACH ... CONCURRENTLY cut short is finished before the migrations (lib/database/migrate.ts,
      -- finishPendingDetaches); one begun since then (an older release's worker) is refused.
      IF v_part.detach_pending THEN
        RAISE EXCEPTION 'hookline.% is being detached (DETACH ... CONCURRENTLY by a worker''s maintenance); migrate again',
          v_part.relname USING ERRCODE = 'lock_not_available';
      END IF;
      IF v_part.bound IS NOT NULL THEN
        EXECUTE format('ALTER TABLE hookline.%I DETACH PARTITION hookline.%I', v_table.relname || '_text_ids', v_part.relname);
      END IF;
      -- Its own CHECKs that name the ids (the same-time rule, bounds DETACH ... CONCURRENTLY added)
      -- cannot be read over uuid: taken off, and put back in uuid terms after.
      SELECT coalesce(array_agg(format('ALTER TABLE hookline.%I ADD CONSTRAINT %I CHECK (%s)', v_part.relname, k.conname,
                                       CASE WHEN k.conname = v_part.relname || '_same_time'
                                            -- prisma/functions/time-partitions.sql, hookline.same_time_check
                                            THEN 'substring(uuid_send(id) FROM 1 FOR 6) = substring(uuid_send(message_id) FROM 1 FOR 6)'
                                            ELSE regexp_replace(substring(pg_get_constraintdef(k.oid) FROM '^CHECK \((.*)\)$'),
                                                                v_literal, '''\1' || '00000000000000000000' || '''::uuid', 'g')
                                       END)), '{}'),
             coalesce(array_agg(k.conname), '{}')
        INTO v_checks, v_check_names
        FROM pg_constraint AS k
       WHERE k.conrelid = v_part.oid AND k.contype = 'c' AND k.coninhcount = 0
         AND pg_get_constraintdef(k.oid) ~ '\m(id|message_id)\M';
      FOREACH v_statement IN ARRAY v_check_names LOOP
        EXECUTE format('ALTER TABLE hookline.%I DROP CONSTRAINT %I', v_part.relname, v_statement);
      END LOOP;
      EXECUTE format('ALTER TABLE hookline.%I ALTER COLUMN id DROP DEFAULT, %s', v_part.relname, v_table.alters);
      FOREACH v_statement IN ARRAY v_checks LOOP
        EXECUTE v_statement;
      END LOOP;
      IF v_part.bound IS NOT NULL THEN
        EXECUTE format('ALTER TABLE hookline.%I ATTACH PARTITION hookline.%I %s', v_table.relname, v_part.relname,
                       regexp_replace(v_part.bound, v_literal, '''\1' || '00000000000000000000' || '''', 'g'));
      END IF;
    END LOOP;
    EXECUTE format('DROP TABLE hookline.%I', v_table.relname || '_text_ids');
  END LOOP;

  -- 4. The views again, shallowest first, as they were.
  FOR v_view IN SELECT * FROM jsonb_to_recordset(v_views)
                  AS v (schema text, name text, depth int, definition text, options text, owner text, restore jsonb)
                 ORDER BY depth
  LOOP
    BEGIN
      EXECUTE format('CREATE VIEW %I.%I %s AS %s', v_view.schema, v_view.name,
                     CASE WHEN v_view.options = '' THEN '' ELSE 'WITH (' || v_view.options || ')' END,
                     v_view.definition);
    EXCEPTION WHEN OTHERS THEN
      RAISE EXCEPTION 'view %.% reads message or delivery ids and cannot be created again over them as uuid: %. Drop it, migrate, then create it again.',
        quote_ident(v_view.schema), quote_ident(v_view.name), SQLERRM;
    END;
    FOR v_statement IN SELECT jsonb_array_elements_text(v_view.restore) LOOP
      EXECUTE v_statement;
    END LOOP;
    IF v_view.owner <> current_user THEN
      EXECUTE format('ALTER VIEW %I.%I OWNER TO %I', v_view.schema, v_view.name, v_view.owner);
    END IF;
  END LOOP;
END $$;
