// schema.prisma is what the Prisma client believes; the SQL migrations are what the database is. This
// fails whenever the two disagree, so a migration without its schema change (or the reverse) cannot land.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { findSchemaDrift, parsePrismaSchema } from '../support/schema-drift';

let db: TestDatabase;
let schema: string;

beforeAll(async () => {
  db = await createTestDatabase();
  schema = await readFile(resolve(import.meta.dirname, '../../prisma/schema.prisma'), 'utf8');
});

describe('prisma/schema.prisma and the migrated database', () => {
  it('agree on every table, column, type, nullability, default, key, index and foreign key', async () => {
    expect(await findSchemaDrift(db.pool, schema)).toEqual([]);
  });

  // Prisma has no word for a column's collation, so the drift check cannot see it: an id column added
  // without COLLATE "C" would compare through strcoll() on most servers again (migration
  // 20261203090000_ids_in_c_collation says what that costs). The idempotency key is the other text a
  // producer's insert descends a B-tree by (migration 20261204090000_idempotency_keys_in_c_collation).
  it('keeps every id column, partitions included, and the idempotency key in the C collation', async () => {
    const { rows } = await db.pool.query<{ id_columns: number; not_c: string[] }>(
      `SELECT count(*)::int AS id_columns,
              coalesce(array_agg(c.relname || '.' || a.attname ORDER BY 1) FILTER (
                WHERE a.attcollation <> 'pg_catalog."C"'::regcollation), '{}') AS not_c
         FROM pg_class AS c
         JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = 'hookline'::regnamespace AND c.relkind IN ('r', 'p')
          AND a.atttypid = 'text'::regtype
          AND (a.attname = 'id' OR a.attname LIKE '%\\_id'
               OR (c.relname = 'idempotency_keys' AND a.attname = 'idempotency_key'))`,
    );
    expect(rows[0]!.not_c).toEqual([]);
    expect(rows[0]!.id_columns).toBeGreaterThan(60);
  });

  it('reads every model of the schema', () => {
    const tables = parsePrismaSchema(schema).map((model) => model.table);
    expect(tables).toEqual(expect.arrayContaining(['apps', 'endpoints', 'messages', 'deliveries', 'attempts', 'api_keys']));
  });

  // The check must be able to fail: each edit below is a real kind of drift it has to catch.
  it.each([
    ['a field the database lacks', (s: string) => s.replace('  name       String\n', '  name       String\n  nickname   String?\n'), /field nickname .*column missing/],
    ['a column the schema lacks', (s: string) => s.replace(/\n\s*revokedAt\s+DateTime\?[^\n]*/, ''), /api_keys\.revoked_at has no field/],
    ['a wrong optionality', (s: string) => s.replace(/(\n\s*url\s+)String/, '$1String?'), /field url .*NOT NULL in the database, schema says optional/],
    ['a wrong type', (s: string) => s.replace(/(\n\s*attemptCount\s+)Int/, '$1BigInt'), /field attemptCount .*type is integer/],
    ['a model without a table', (s: string) => `${s}\nmodel Ghost {\n  id String @id\n\n  @@map("ghosts")\n  @@schema("hookline")\n}\n`, /table hookline\.ghosts does not exist/],
    ['an undeclared index', (s: string) => s.replace('@@index([deliveryId, startedAt])', '@@index([deliveryId, workerId])'), /index \(delivery_id, worker_id\) is declared but not in the database/],
  ])('reports %s', async (_label, edit, problem) => {
    const drifted = edit(schema);
    expect(drifted).not.toBe(schema);
    const problems = await findSchemaDrift(db.pool, drifted);
    expect(problems.join('\n')).toMatch(problem);
  });
});
