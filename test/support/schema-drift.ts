// Compares prisma/schema.prisma with a migrated database. Prisma's own drift check (`prisma migrate
// diff`) needs the native schema engine, which cannot be downloaded on offline machines, so this reads
// the subset of the schema language Hookline uses and checks it against the catalog: every model is a
// table and every table a model, column names, types, nullability and defaults, primary keys, unique
// constraints, indexes and foreign keys declared in the schema.
import type { Pool } from '../../lib/database/pg';

export interface PrismaField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  relation: boolean;
  hasDefault: boolean;
  dbType: string | null;
  id: boolean;
  unique: boolean;
  relationFields: string[];
  relationReferences: string[];
  /**
   * Marked `// no foreign key` in the schema: a relation the Prisma client joins on but the database
   * does not enforce (the hot tables, migration 20261123170000_write_path_v2). Its foreign key must
   * then be absent, so neither side can drift.
   */
  unenforced: boolean;
}

export interface PrismaModel {
  name: string;
  table: string;
  fields: PrismaField[];
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
}

const SCALARS = new Set(['String', 'Int', 'BigInt', 'Float', 'Boolean', 'DateTime', 'Json', 'Decimal', 'Bytes']);

function listArgument(text: string, name: string): string[] {
  const match = new RegExp(`${name}:\\s*\\[([^\\]]*)\\]`).exec(text);
  return match ? splitColumns(match[1]!) : [];
}

// "[appId, createdAt(sort: Desc)]" -> ["appId", "createdAt"]
function splitColumns(text: string): string[] {
  return text
    .replace(/\([^)]*\)/g, '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export function parsePrismaSchema(source: string): PrismaModel[] {
  // The one comment with a meaning: it survives the stripping as a marker the field parser reads.
  const withoutComments = source.replace(/\/\/\s*no foreign key\b[^\n]*/g, '@@unenforced').replace(/\/\/[^\n]*/g, '');
  const models: PrismaModel[] = [];
  for (const match of withoutComments.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const [, name, body] = match as unknown as [string, string, string];
    const model: PrismaModel = { name, table: name, fields: [], primaryKey: [], uniques: [], indexes: [] };
    for (const rawLine of body.split('\n')) {
      const line = rawLine.trim();
      if (!line) continue;
      if (line.startsWith('@@')) {
        const columns = /\[([^\]]*)\]/.exec(line)?.[1];
        if (line.startsWith('@@map(')) model.table = /"([^"]+)"/.exec(line)![1]!;
        else if (line.startsWith('@@id(')) model.primaryKey = splitColumns(columns!);
        else if (line.startsWith('@@unique(')) model.uniques.push(splitColumns(columns!));
        else if (line.startsWith('@@index(')) model.indexes.push(splitColumns(columns!));
        continue;
      }
      // Unsupported("xid8"): a column type the Prisma client cannot read, named as the catalog names it.
      const fieldMatch = /^(\w+)\s+(\w+(?:\("[^"]*"\))?)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!fieldMatch) continue;
      const [, fieldName, type, list, optional, attributes] = fieldMatch as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const relationText = /@relation\(([^)]*)\)/.exec(attributes)?.[1] ?? '';
      model.fields.push({
        name: fieldName,
        column: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? fieldName,
        type,
        optional: Boolean(optional),
        list: Boolean(list),
        relation: !SCALARS.has(type) && !type.startsWith('Unsupported('),
        hasDefault: attributes.includes('@default('),
        dbType: /@db\.(\w+(?:\(\d+(?:,\s*\d+)?\))?)/.exec(attributes)?.[1] ?? null,
        id: /@id\b/.test(attributes),
        unique: /@unique\b/.test(attributes),
        relationFields: listArgument(relationText, 'fields'),
        relationReferences: listArgument(relationText, 'references'),
        unenforced: attributes.includes('@@unenforced'),
      });
    }
    const idField = model.fields.find((field) => field.id);
    if (idField) model.primaryKey = [idField.name];
    models.push(model);
  }
  return models;
}

// What each Prisma type becomes in PostgreSQL (format_type output), as Prisma Migrate would create it.
function expectedColumnType(field: PrismaField): string {
  const base = (() => {
    if (field.dbType) {
      const timestamptz = /^Timestamptz\((\d+)\)$/.exec(field.dbType);
      if (timestamptz) return `timestamp(${timestamptz[1]}) with time zone`;
      if (field.dbType === 'Text') return 'text';
      const varchar = /^VarChar\((\d+)\)$/.exec(field.dbType);
      if (varchar) return `character varying(${varchar[1]})`;
      return field.dbType.toLowerCase();
    }
    const unsupported = /^Unsupported\("([^"]*)"\)$/.exec(field.type);
    if (unsupported) return unsupported[1]!;
    switch (field.type) {
      case 'String':
        return 'text';
      case 'Int':
        return 'integer';
      case 'BigInt':
        return 'bigint';
      case 'Float':
        return 'double precision';
      case 'Boolean':
        return 'boolean';
      case 'DateTime':
        return 'timestamp(3) without time zone';
      case 'Json':
        return 'jsonb';
      default:
        return `unknown Prisma type ${field.type}`;
    }
  })();
  return field.list ? `${base}[]` : base;
}

interface CatalogColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

/** Returns one line per disagreement; empty when the schema and the database agree. */
export async function findSchemaDrift(pool: Pool, schemaSource: string, schemaName = 'hookline'): Promise<string[]> {
  const models = parsePrismaSchema(schemaSource);
  const problems: string[] = [];

  const tables = await pool.query<{ table: string }>(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname NOT IN ('_prisma_migrations', '_function_files')`,
    [schemaName],
  );
  const columns = await pool.query<CatalogColumn>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            NOT a.attnotnull AS nullable, a.atthasdef AS "hasDefault"
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
    [schemaName],
  );
  // Every index (unique or not, including those behind constraints) as its ordered column list.
  const indexes = await pool.query<{
    table: string;
    columns: string[];
    unique: boolean;
    primary: boolean;
    partial: boolean;
  }>(
    `SELECT c.relname AS table, i.indisunique AS unique, i.indisprimary AS primary, i.indpred IS NOT NULL AS partial,
            ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND NOT c.relispartition`,
    [schemaName],
  );
  const foreignKeys = await pool.query<{ table: string; columns: string[]; target: string; targetColumns: string[] }>(
    `SELECT c.relname AS table, t.relname AS target,
            ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS x(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.attnum ORDER BY x.ord)::text[] AS columns,
            ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY AS x(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.attnum ORDER BY x.ord)::text[] AS "targetColumns"
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND k.contype = 'f'`,
    [schemaName],
  );

  const modelTables = new Set(models.map((model) => model.table));
  for (const { table } of tables.rows) {
    if (!modelTables.has(table))
      problems.push(`table ${schemaName}.${table} exists in the database but no model maps to it`);
  }
  const existingTables = new Set(tables.rows.map((row) => row.table));
  const byTable = (table: string) => columns.rows.filter((column) => column.table === table);

  for (const model of models) {
    if (!existingTables.has(model.table)) {
      problems.push(`model ${model.name}: table ${schemaName}.${model.table} does not exist in the database`);
      continue;
    }
    const scalarFields = model.fields.filter((field) => !field.relation);
    const columnOf = (fieldName: string) => model.fields.find((field) => field.name === fieldName)?.column ?? fieldName;
    const dbColumns = byTable(model.table);
    for (const column of dbColumns) {
      if (!scalarFields.some((field) => field.column === column.column)) {
        problems.push(`model ${model.name}: column ${model.table}.${column.column} has no field in schema.prisma`);
      }
    }
    for (const field of scalarFields) {
      const column = dbColumns.find((candidate) => candidate.column === field.column);
      const where = `model ${model.name}, field ${field.name} (${model.table}.${field.column})`;
      if (!column) {
        problems.push(`${where}: column missing in the database`);
        continue;
      }
      // timestamptz without a precision is timestamptz(6), the maximum: the same column.
      const normalise = (type: string) => type.replace('timestamp(6)', 'timestamp');
      const expected = expectedColumnType(field);
      if (normalise(column.type) !== normalise(expected))
        problems.push(`${where}: type is ${column.type} in the database, schema says ${expected}`);
      // Prisma lists are never NULL to the client; their columns may be NOT NULL DEFAULT '{}'.
      if (!field.list && column.nullable !== field.optional) {
        problems.push(
          `${where}: ${column.nullable ? 'nullable' : 'NOT NULL'} in the database, schema says ${field.optional ? 'optional' : 'required'}`,
        );
      }
      if (column.hasDefault !== field.hasDefault) {
        problems.push(
          `${where}: ${column.hasDefault ? 'has a default' : 'has no default'} in the database, schema says the opposite`,
        );
      }
    }
    const tableIndexes = indexes.rows.filter((index) => index.table === model.table && !index.partial);
    const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((value, i) => value === b[i]);
    const primary = tableIndexes.find((index) => index.primary);
    const expectedPrimary = model.primaryKey.map(columnOf);
    if (!primary || !sameColumns(primary.columns, expectedPrimary)) {
      problems.push(
        `model ${model.name}: primary key is (${primary?.columns.join(', ') ?? 'none'}) in the database, schema says (${expectedPrimary.join(', ')})`,
      );
    }
    const uniques = [...model.uniques, ...model.fields.filter((field) => field.unique).map((field) => [field.name])];
    for (const unique of uniques.map((fields) => fields.map(columnOf))) {
      if (!tableIndexes.some((index) => index.unique && sameColumns(index.columns, unique))) {
        problems.push(`model ${model.name}: unique (${unique.join(', ')}) is declared but not in the database`);
      }
    }
    for (const index of model.indexes.map((fields) => fields.map(columnOf))) {
      if (!tableIndexes.some((candidate) => sameColumns(candidate.columns, index))) {
        problems.push(`model ${model.name}: index (${index.join(', ')}) is declared but not in the database`);
      }
    }
    for (const field of model.fields.filter((candidate) => candidate.relationFields.length > 0)) {
      const target = models.find((candidate) => candidate.name === field.type);
      const expectedColumns = field.relationFields.map(columnOf);
      const targetColumns = field.relationReferences.map(
        (name) => target?.fields.find((candidate) => candidate.name === name)?.column ?? name,
      );
      const found = foreignKeys.rows.some(
        (fk) =>
          fk.table === model.table &&
          fk.target === target?.table &&
          sameColumns(fk.columns, expectedColumns) &&
          sameColumns(fk.targetColumns, targetColumns),
      );
      if (field.unenforced && found) {
        problems.push(
          `model ${model.name}: relation ${field.name} (${expectedColumns.join(', ')}) is marked "no foreign key" but the database has one`,
        );
      } else if (!field.unenforced && !found) {
        problems.push(
          `model ${model.name}: relation ${field.name} (${expectedColumns.join(', ')}) -> ${target?.table}(${targetColumns.join(', ')}) has no foreign key in the database`,
        );
      }
    }
  }
  return problems;
}
