// Test databases are copies of one migrated when the suite started, maybe many minutes ago. Tests of
// the time partitions put them back as a migration leaves them now (the legacy partition, one-minute
// periods for 15 minutes from now, then the overflow), so the clock-relative steps they take hold.
import type { Pool } from '../../lib/database/pg';

export async function resetTimePartitions(pool: Pool): Promise<void> {
  await pool.query(`DO $$
    DECLARE p record;
    BEGIN
      FOR p IN SELECT t.table_name, q.partition_name
                 FROM hookline.time_partitioned_tables() AS t, hookline.time_partitions(t.table_name) AS q
                WHERE q.lower_at IS NOT NULL LOOP
        EXECUTE format('ALTER TABLE hookline.%I DETACH PARTITION hookline.%I', p.table_name, p.partition_name);
        EXECUTE format('DROP TABLE hookline.%I', p.partition_name);
      END LOOP;
      PERFORM hookline.ensure_overflow_partitions();
    END $$`);
}
