-- Every id column compares byte by byte (COLLATE "C"), whatever the database's own collation.
--
-- Ids are ASCII (a prefix, an underscore, hex digits), but a text column compares in the database's
-- collation, and most servers are not created with C: Debian's initdb takes LANG, the official Docker
-- image and the managed services default to en_US.UTF-8. There, every B-tree step over an id calls
-- strcoll() instead of memcmp(). Measured on PostgreSQL 15 (bench/README.md, "ids in the C
-- collation"): 300,000 rows into a table keyed like hookline.deliveries (a text primary key and two
-- indexes led by text ids) took 4.4-4.6 s in en_US.UTF-8 against 2.5-2.9 s in C; a 20k drain cost
-- PostgreSQL 2.5-2.7 s of CPU against 2.1-2.2 s on the same server version in C. Equality alone would
-- not care (deterministic collations compare equal bytes as equal), but every index descent, insert,
-- range over time partitions and ORDER BY id does.
--
-- Which columns: text columns named id or *_id in schema hookline (the public ids and every reference
-- to one). C orders them exactly as before: same-length lowercase hex after a common prefix sorts the
-- same in every collation (migration 20261126130000_time_partitions relied on it for the partition
-- bounds). Names, URLs, event types and other text a person reads keep the database's collation.
--
-- How: an ordinary table's columns change in place (ALTER COLUMN ... TYPE text COLLATE "C": no rewrite
-- of the rows, its indexes on those columns are rebuilt). The partitioned tables (messages,
-- deliveries, attempts) cannot change their partition key's collation, so each gets a new parent:
-- the old one is renamed, and a parent with C ids takes its name, with the same columns, defaults,
-- constraints, indexes (their names too), trigger, owner, grants, publications, comment, statistics
-- targets and trigger modes. Every period moves over: DETACH, its columns changed as above, ATTACH with
-- its bounds unchanged (one scan of the period to check them; its rebuilt indexes are taken over by the
-- new parent's). Views name the tables by oid and carry their columns' collations, so every view over
-- these tables (and the views over those, such as net._http_response) is dropped first and created
-- again from its own definition, with its options, owner, grants and comments. What a new parent
-- could not carry refuses the whole migration before any change, naming each object (section 1).
-- A period whose DETACH ... CONCURRENTLY was cut short is finished before the migrations run
-- (lib/database/migrate.ts, finishPendingDetaches).
-- Cost: the migration holds its tables exclusively (producers' hookline.send waits) for time
-- proportional to their size: 6 s for 1,000,000 messages with their deliveries (1 GB, PostgreSQL 15).
DO $$
DECLARE
  v_view record;
  v_views jsonb := '[]'::jsonb;
  v_table record;
  v_part record;
  v_def record;
  v_columns text;
  v_defs text[];
  v_statement text;
  v_refused text[] := '{}';
BEGIN
  -- 1. Views that read any hookline table, directly or through another view, deepest last.
  FOR v_view IN
    WITH RECURSIVE dependent AS (
      SELECT DISTINCT r.ev_class AS view_oid, 1 AS depth
        FROM pg_depend AS d
        JOIN pg_rewrite AS r ON r.oid = d.objid
        JOIN pg_class AS t ON t.oid = d.refobjid
       WHERE d.classid = 'pg_rewrite'::regclass
         AND t.relnamespace = 'hookline'::regnamespace
         AND t.relkind IN ('r', 'p')
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
           -- What goes back on it once it is created again: its grants (whole, and on columns), its
           -- comments (its own, and its columns').
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
      v_refused := v_refused || format('materialized view %I.%I reads a hookline table', v_view.nspname, v_view.relname);
    ELSIF NOT v_view.ours THEN
      v_refused := v_refused || format('view %I.%I reads a hookline table and belongs to %I, whose views this role may not drop',
                                       v_view.nspname, v_view.relname, v_view.owner);
    END IF;
    v_views := v_views || jsonb_build_object(
      'schema', v_view.nspname, 'name', v_view.relname, 'depth', v_view.depth, 'definition', v_view.definition,
      'options', coalesce(array_to_string(v_view.reloptions, ', '), ''), 'owner', v_view.owner,
      'restore', to_jsonb(v_view.restore));
  END LOOP;
  -- What a new parent could not carry over refuses the migration, whole and before any change, with
  -- every such object named (the transaction rolls back; nothing is half done).
  SELECT v_refused || coalesce(array_agg(problem ORDER BY problem), '{}') INTO v_refused FROM (
    SELECT format('foreign key %I of %s references %s', con.conname, con.conrelid::regclass, con.confrelid::regclass) AS problem
      FROM pg_constraint AS con JOIN pg_class AS c ON c.oid = con.confrelid
     WHERE con.contype = 'f' AND c.relkind = 'p' AND c.relnamespace = 'hookline'::regnamespace
    UNION ALL
    SELECT format('row-level security or a policy on %s', c.oid::regclass)
      FROM pg_class AS c
     WHERE c.relkind = 'p' AND c.relnamespace = 'hookline'::regnamespace
       AND (c.relrowsecurity OR EXISTS (SELECT 1 FROM pg_policy AS pol WHERE pol.polrelid = c.oid))
    UNION ALL
    SELECT format('function %s depends on %s or its row type', d.objid::regprocedure, c.oid::regclass)
      FROM pg_depend AS d JOIN pg_class AS c ON d.refobjid IN (c.oid, c.reltype)
     WHERE d.classid = 'pg_proc'::regclass AND c.relkind = 'p' AND c.relnamespace = 'hookline'::regnamespace
    UNION ALL
    SELECT format('column privileges on %s.%I', c.oid::regclass, a.attname)
      FROM pg_class AS c JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0
     WHERE c.relkind = 'p' AND c.relnamespace = 'hookline'::regnamespace AND a.attacl IS NOT NULL
    UNION ALL
    -- Row filters and column lists (PostgreSQL 15+), read through to_jsonb so 14 parses it too.
    SELECT format('publication %I filters the rows or columns of %s', pub.pubname, c.oid::regclass)
      FROM pg_publication_rel AS pr
      JOIN pg_publication AS pub ON pub.oid = pr.prpubid
      JOIN pg_class AS c ON c.oid = pr.prrelid
     WHERE c.relkind = 'p' AND c.relnamespace = 'hookline'::regnamespace
       AND (to_jsonb(pr) ->> 'prqual' IS NOT NULL OR to_jsonb(pr) ->> 'prattrs' IS NOT NULL)
  ) AS problems;
  IF cardinality(v_refused) > 0 THEN
    RAISE EXCEPTION 'this migration gives hookline.messages, deliveries and attempts new parent tables and cannot carry these over: %. Drop them (a view of another role: or migrate as a superuser), migrate, then create them again.',
      array_to_string(v_refused, '; ');
  END IF;

  FOR v_view IN SELECT * FROM jsonb_to_recordset(v_views) AS v (schema text, name text, depth int)
                 ORDER BY depth DESC
  LOOP
    EXECUTE format('DROP VIEW %I.%I', v_view.schema, v_view.name);
  END LOOP;

  -- 2. Ordinary tables: their id columns change in place. Periods retention detached and has not
  -- dropped yet are among them, so that the maintenance can still attach one back.
  FOR v_table IN
    SELECT c.oid, c.relname,
           string_agg(format('ALTER COLUMN %I TYPE text COLLATE "C"', a.attname), ', ' ORDER BY a.attnum) AS alters
      FROM pg_class AS c
      JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE c.relnamespace = 'hookline'::regnamespace
       AND c.relkind = 'r'
       AND NOT c.relispartition
       AND a.atttypid = 'text'::regtype
       AND a.attcollation <> 'pg_catalog."C"'::regcollation
       AND (a.attname = 'id' OR a.attname LIKE '%\_id')
     GROUP BY c.oid, c.relname
  LOOP
    EXECUTE format('ALTER TABLE hookline.%I %s', v_table.relname, v_table.alters);
  END LOOP;

  -- 3. Partitioned tables: a new parent, and every period moved to it.
  FOR v_table IN
    SELECT c.oid, c.relname FROM pg_class AS c
     WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind = 'p'
  LOOP
    SELECT string_agg(format('ALTER COLUMN %I TYPE text COLLATE "C"', a.attname), ', ' ORDER BY a.attnum)
      INTO v_columns
      FROM pg_attribute AS a
     WHERE a.attrelid = v_table.oid AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid = 'text'::regtype
       AND a.attcollation <> 'pg_catalog."C"'::regcollation
       AND (a.attname = 'id' OR a.attname LIKE '%\_id');
    CONTINUE WHEN v_columns IS NULL;

    -- What the new parent must have, read before the names move: its primary key and unique
    -- constraints, its other indexes, its own triggers (not the partitions' clones of them).
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
      -- Its owner and what others were granted on it (an analytics role reading the messages).
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
      -- The publications it was in (logical replication, a CDC feed), its comment, its columns'
      -- statistics targets, and its triggers' firing mode.
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

    EXECUTE format('ALTER TABLE hookline.%I RENAME TO %I', v_table.relname, v_table.relname || '_default_collation');
    FOR v_def IN SELECT ic.oid, ic.relname FROM pg_index AS i JOIN pg_class AS ic ON ic.oid = i.indexrelid
                  WHERE i.indrelid = v_table.oid
    LOOP
      EXECUTE format('ALTER INDEX hookline.%I RENAME TO %I', v_def.relname, 'default_collation_' || v_def.oid);
    END LOOP;
    -- The columns as they are, then the ids changed, in a scratch table (not a temporary one: some
    -- servers revoke TEMP): a partition key's collation is fixed once the parent exists.
    EXECUTE format('CREATE TABLE hookline.collation_template (LIKE hookline.%I INCLUDING ALL EXCLUDING INDEXES)',
                   v_table.relname || '_default_collation');
    EXECUTE format('ALTER TABLE hookline.collation_template %s', v_columns);
    EXECUTE format('CREATE TABLE hookline.%I (LIKE hookline.collation_template INCLUDING ALL EXCLUDING INDEXES) PARTITION BY RANGE (id)',
                   v_table.relname);
    EXECUTE 'DROP TABLE hookline.collation_template';
    FOREACH v_statement IN ARRAY v_defs LOOP
      EXECUTE v_statement;
    END LOOP;

    FOR v_part IN
      SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhdetachpending AS detach_pending
        FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
       WHERE i.inhparent = v_table.oid
    LOOP
      -- A DETACH ... CONCURRENTLY cut short is finished before the migrations, outside their
      -- transactions (lib/database/migrate.ts, finishPendingDetaches): FINALIZE here would wait for
      -- older snapshots while holding the locks their sessions queue for. One begun since then (an
      -- older release's worker) is refused; the next start finishes it.
      IF v_part.detach_pending THEN
        RAISE EXCEPTION 'hookline.% is being detached (DETACH ... CONCURRENTLY by a worker''s maintenance); migrate again',
          v_part.relname USING ERRCODE = 'lock_not_available';
      END IF;
      EXECUTE format('ALTER TABLE hookline.%I DETACH PARTITION hookline.%I', v_table.relname || '_default_collation',
                     v_part.relname);
      SELECT string_agg(format('ALTER COLUMN %I TYPE text COLLATE "C"', a.attname), ', ' ORDER BY a.attnum)
        INTO v_columns
        FROM pg_attribute AS a
       WHERE a.attrelid = format('hookline.%I', v_part.relname)::regclass AND a.attnum > 0 AND NOT a.attisdropped
         AND a.atttypid = 'text'::regtype
         AND a.attcollation <> 'pg_catalog."C"'::regcollation
         AND (a.attname = 'id' OR a.attname LIKE '%\_id');
      IF v_columns IS NOT NULL THEN
        EXECUTE format('ALTER TABLE hookline.%I %s', v_part.relname, v_columns);
      END IF;
      EXECUTE format('ALTER TABLE hookline.%I ATTACH PARTITION hookline.%I %s', v_table.relname, v_part.relname, v_part.bound);
    END LOOP;
    EXECUTE format('DROP TABLE hookline.%I', v_table.relname || '_default_collation');
  END LOOP;

  -- 4. The views again, shallowest first, as they were.
  FOR v_view IN SELECT * FROM jsonb_to_recordset(v_views)
                  AS v (schema text, name text, depth int, definition text, options text, owner text, restore jsonb)
                 ORDER BY depth
  LOOP
    EXECUTE format('CREATE VIEW %I.%I %s AS %s', v_view.schema, v_view.name,
                   CASE WHEN v_view.options = '' THEN '' ELSE 'WITH (' || v_view.options || ')' END,
                   v_view.definition);
    FOR v_statement IN SELECT jsonb_array_elements_text(v_view.restore) LOOP
      EXECUTE v_statement;
    END LOOP;
    IF v_view.owner <> current_user THEN
      EXECUTE format('ALTER VIEW %I.%I OWNER TO %I', v_view.schema, v_view.name, v_view.owner);
    END IF;
  END LOOP;
END $$;
