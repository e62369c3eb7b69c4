// A producer that is not Hookline's owner: an application role given exactly the grants README.md
// ("Privileges") lists records events through a trigger calling hookline.send, and requests through
// hookline.http_post / http_get / http_delete, while every table of schema hookline stays closed to it
// (endpoints' URLs and headers, signing secrets, messages). The grants are read from the README, so the
// README cannot list fewer than a producer needs, nor more without this test saying so.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../lib/database/pg';
import { createTestDatabase, type TestDatabase } from '../support/database';

const suffix = randomBytes(4).toString('hex');
const PRODUCER = `hl_producer_${suffix}`;
const PASSWORD = randomBytes(12).toString('hex');
const APP = `app_producer_${suffix}`;

/** The `sql` block of the README's Privileges paragraph that grants to `writer`. */
function readmeGrants(): string {
  const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  const grants = blocks.filter((block) => /\bGRANT\b[\s\S]*\bTO writer\b/.test(block));
  expect(grants, 'one sql block in the README grants to writer').toHaveLength(1);
  return grants[0]!;
}

let db: TestDatabase;
let producer: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`CREATE ROLE ${PRODUCER} LOGIN PASSWORD '${PASSWORD}'`);
  await db.pool.query(readmeGrants().replace(/\bwriter\b/g, PRODUCER));
  // The application's own table and trigger, as in the README's hookline.send example; the grants on
  // its own table are the application's business, not Hookline's.
  await db.pool.query(`
    INSERT INTO hookline.apps (id, name) VALUES ('${APP}', 'Producer');
    INSERT INTO hookline.event_types (app_id, name) VALUES ('${APP}', 'spice.harvested');
    CREATE TABLE public.spice_harvests (id bigserial PRIMARY KEY, planet text NOT NULL, tonnes numeric NOT NULL);
    CREATE FUNCTION public.notify_harvest() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hookline.send('${APP}', 'spice.harvested', to_jsonb(NEW));
      RETURN NEW;
    END $$;
    CREATE TRIGGER spice_harvests_webhook AFTER INSERT ON public.spice_harvests
      FOR EACH ROW EXECUTE FUNCTION public.notify_harvest();
    GRANT INSERT ON public.spice_harvests TO ${PRODUCER};
    GRANT USAGE ON SEQUENCE public.spice_harvests_id_seq TO ${PRODUCER};`);
  const url = new URL(withDatabase(inject('maintenanceUrl'), db.name));
  url.username = PRODUCER;
  url.password = PASSWORD;
  producer = new pg.Client({ connectionString: url.toString() });
  await producer.connect();
});

afterAll(async () => {
  await producer?.end();
  // The role holds privileges in the test database: revoke them there, then drop it (roles are per cluster).
  await db.pool.query(`DROP OWNED BY ${PRODUCER}`);
  await db.pool.query(`DROP ROLE ${PRODUCER}`);
});

describe('a producer role with only the README grants', () => {
  it('is not the owner of schema hookline, nor a superuser', async () => {
    const { rows } = await producer.query(
      `SELECT r.rolsuper, n.nspowner = r.oid AS owns_hookline
         FROM pg_roles r, pg_namespace n WHERE r.rolname = current_user AND n.nspname = 'hookline'`,
    );
    expect(rows).toEqual([{ rolsuper: false, owns_hookline: false }]);
  });

  it('records events through a trigger calling hookline.send, and by calling it', async () => {
    await producer.query(`INSERT INTO public.spice_harvests (planet, tonnes) VALUES ('Arrakis', 12), ('Caladan', 3)`);
    const { rows: direct } = await producer.query<{ id: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"planet": "Giedi Prime", "tonnes": 1}', 'harvest-1') AS id`,
      [APP],
    );
    const { rows: repeat } = await producer.query<{ id: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"planet": "Giedi Prime", "tonnes": 1}', 'harvest-1') AS id`,
      [APP],
    );
    expect(direct[0]!.id).toMatch(/^msg_/);
    expect(repeat[0]!.id).toBe(direct[0]!.id);
    // Its errors still name what is wrong, as they do for the owner.
    await expect(producer.query(`SELECT hookline.send('app_nope', 'spice.harvested', '{}')`)).rejects.toThrow(
      /unknown app 'app_nope'/,
    );

    const { rows } = await db.pool.query(
      `SELECT m.payload->>'planet' AS planet,
              m.written_by IS NOT NULL AND NOT pg_visible_in_snapshot(m.written_by, c.fanned_out_through) AS waiting
         FROM hookline.messages m, hookline.fanout_cursor c
        WHERE m.app_id = $1 ORDER BY m.payload->>'planet'`,
      [APP],
    );
    // Each waits for the fan-out, found by the producer's transaction: no table the producer may not
    // write was needed for it.
    expect(rows).toEqual([
      { planet: 'Arrakis', waiting: true },
      { planet: 'Caladan', waiting: true },
      { planet: 'Giedi Prime', waiting: true },
    ]);
  });

  it('records requests through hookline.http_post, http_get and http_delete', async () => {
    const { rows } = await producer.query<{ post: string; again: string; get: string; delete: string }>(
      `SELECT hookline.http_post('https://example.com/hooks', '{"n": 1}') AS post,
              hookline.http_post(url := 'https://example.com/hooks', body := '{"n": 2}') AS again,
              hookline.http_get('https://example.com/items', '{"q": "x"}') AS get,
              hookline.http_delete('https://example.com/items/1') AS delete`,
    );
    expect(Object.values(rows[0]!).every((id) => Number(id) > 0)).toBe(true);
    const { rows: recorded } = await db.pool.query(
      `SELECT e.method, e.url, count(*)::int AS messages, bool_and(s.n = 1) AS one_secret
         FROM hookline.messages m JOIN hookline.endpoints e ON e.id = m.target_endpoint_id
         CROSS JOIN LATERAL (SELECT count(*) AS n FROM hookline.endpoint_secrets s WHERE s.endpoint_id = e.id) s
        WHERE m.request_id IS NOT NULL GROUP BY e.method, e.url ORDER BY e.url, e.method`,
    );
    expect(recorded).toEqual([
      { method: 'POST', url: 'https://example.com/hooks', messages: 2, one_secret: true },
      { method: 'DELETE', url: 'https://example.com/items/1', messages: 1, one_secret: true },
      { method: 'GET', url: 'https://example.com/items?q=x', messages: 1, one_secret: true },
    ]);
  });

  it('cannot read or write any table of schema hookline directly', async () => {
    for (const table of [
      'endpoints',
      'endpoint_secrets',
      'messages',
      'apps',
      'event_types',
      'fanout_cursor',
      'fanout_batches',
    ]) {
      await expect(producer.query(`SELECT * FROM hookline.${table} LIMIT 1`), table).rejects.toThrow(
        /permission denied/,
      );
    }
    await expect(
      producer.query(
        `INSERT INTO hookline.messages (app_id, event_type, payload) VALUES ($1, 'spice.harvested', '{}')`,
        [APP],
      ),
    ).rejects.toThrow(/permission denied/);
  });
});

// hookline.send runs with its owner's rights but without SET search_path (its cost per call:
// prisma/functions/send.sql), so what keeps a caller's objects out is that every name it and the
// functions it reaches use is qualified. This producer owns a schema it puts ahead of pg_catalog, with
// its own copy of every built-in function and operator named in those files, and pg_temp types named
// like every type they name: any unqualified use would call the copy, which raises.
describe('a producer whose search_path shadows every name hookline.send uses', () => {
  const SHADOW = `hl_shadow_${suffix}`;
  const FILES = ['send.sql', 'check-payload.sql', 'new-id.sql'];
  let shadowed: pg.Client;

  /** The files' SQL without comments and string literals. */
  function code(): string {
    return FILES.map((file) =>
      readFileSync(resolve(import.meta.dirname, '../../prisma/functions', file), 'utf8')
        .replace(/--.*$/gm, '')
        .replace(/'(?:[^']|'')*'/g, "''"),
    ).join('\n');
  }

  beforeAll(async () => {
    await db.pool.query(`CREATE SCHEMA ${SHADOW} AUTHORIZATION ${PRODUCER}`);
    await db.pool.query(`INSERT INTO hookline.event_types (app_id, name, archived) VALUES ($1, 'old.thing', true)`, [
      APP,
    ]);
    const url = new URL(withDatabase(inject('maintenanceUrl'), db.name));
    url.username = PRODUCER;
    url.password = PASSWORD;
    // A new session: plpgsql compiles a function once per session, with the search_path of its first call.
    shadowed = new pg.Client({ connectionString: url.toString() });
    await shadowed.connect();

    const sql = code();
    const functionNames = [...new Set([...sql.matchAll(/([a-z_][a-z0-9_]*)\s*\(/gi)].map((m) => m[1]!.toLowerCase()))];
    const operatorNames = [...new Set([...sql.matchAll(/[-+*/<>=~!@#%^&|]+/g)].map((m) => m[0]))];
    const typeNames = [
      ...new Set(
        [...sql.matchAll(/pg_catalog\.([a-z0-9_]+)/gi)].map((m) => m[1]!.toLowerCase()).concat(['text', 'jsonb']),
      ),
    ];
    // Every overload PostgreSQL has of each name, with its exact argument and result types (an exact
    // match earlier in the path wins), but those of pseudo-types, which only C functions take.
    const { rows: functions } = await db.pool.query<{ name: string; args: string; result: string }>(
      `SELECT p.proname AS name, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args,
              p.prorettype::regtype::text AS result
         FROM pg_catalog.pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f' AND p.proname = ANY($1)
          AND p.provariadic = 0 AND p.proretset = false
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(p.proargtypes::oid[] || p.prorettype) AS t(oid)
                           JOIN pg_catalog.pg_type ty ON ty.oid = t.oid WHERE ty.typtype = 'p')`,
      [functionNames],
    );
    const { rows: operators } = await db.pool.query<{
      oid: number;
      name: string;
      left: string | null;
      right: string;
      result: string;
    }>(
      `SELECT o.oid, o.oprname AS name, nullif(o.oprleft, 0)::regtype::text AS left,
              o.oprright::regtype::text AS right, o.oprresult::regtype::text AS result
         FROM pg_catalog.pg_operator o
        WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprname = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_catalog.unnest(ARRAY[o.oprleft, o.oprright, o.oprresult]) AS t(oid)
                           JOIN pg_catalog.pg_type ty ON ty.oid = t.oid WHERE ty.typtype = 'p')`,
      [operatorNames],
    );
    expect(functionNames, 'the files were read').toEqual(
      expect.arrayContaining(['length', 'jsonb_typeof', 'lpad', 'now']),
    );
    expect(
      operators.map((o) => o.name),
      'the files were read',
    ).toEqual(expect.arrayContaining(['=', '<>', '>', '*', '+', '||', '!~']));

    const raising = (what: string) => `BEGIN RAISE EXCEPTION 'shadow % called', ${pgLiteral(what)}; END`;
    const statements: string[] = [];
    for (const f of functions) {
      statements.push(
        `CREATE FUNCTION ${SHADOW}.${quoteIdent(f.name)}(${f.args}) RETURNS ${f.result} LANGUAGE plpgsql AS $f$ ${raising(f.name)} $f$;`,
      );
    }
    for (const o of operators) {
      const args = [o.left, o.right].filter((t) => t !== null).join(', ');
      statements.push(
        `CREATE FUNCTION ${SHADOW}.operator_${o.oid}(${args}) RETURNS ${o.result} LANGUAGE plpgsql AS $f$ ${raising(o.name)} $f$;`,
        `CREATE OPERATOR ${SHADOW}.${o.name} (${o.left ? `LEFTARG = ${o.left}, ` : ''}RIGHTARG = ${o.right}, FUNCTION = ${SHADOW}.operator_${o.oid});`,
      );
    }
    for (const type of typeNames) {
      const { rows } = await db.pool.query(`SELECT 1 FROM pg_catalog.pg_type WHERE typname = $1 AND typtype = 'b'`, [
        type,
      ]);
      if (rows.length > 0)
        statements.push(`CREATE DOMAIN pg_temp.${type} AS pg_catalog.${type} CHECK (VALUE IS NULL);`);
    }
    await shadowed.query(statements.join('\n'));
    await shadowed.query(`SET search_path = ${SHADOW}, pg_catalog`);
  });

  afterAll(async () => {
    await shadowed?.end();
  });

  it('finds no unqualified operator, function or construct that resolves one, in the files', () => {
    // What the copies below cannot catch: a name added later that they were not made for. Operators
    // only inside OPERATOR(pg_catalog.x); calls only schema-qualified, or SQL constructs that look up
    // nothing by search_path; none of the constructs that look up `=` or `~~` by it (IN, LIKE,
    // BETWEEN, NULLIF, IS DISTINCT FROM, ANY, CASE x WHEN, ...).
    const sql = code()
      .replace(/OPERATOR\(pg_catalog\.[^)\s]+\)/g, ' ')
      .replace(/:=/g, ' ')
      // RAISE ... USING ERRCODE = '...', HINT = '...': plpgsql's syntax, not the operator
      .replace(/\b(ERRCODE|HINT|MESSAGE|DETAIL)\s*=/g, ' ')
      .replace(/#variable_conflict \w+/g, ' ');
    expect(sql.match(/[-+*/<>=~!@#%^&|`?]/g) ?? [], 'operators outside OPERATOR(pg_catalog.x)').toEqual([]);
    // SELECT (expr) and FROM (subquery) are parentheses after a keyword, not calls (hookline.uuid_of's
    // body, hookline.new_uuid(sibling)'s).
    const constructs = new Set([
      'and',
      'or',
      'not',
      'if',
      'exists',
      'greatest',
      'values',
      'conflict',
      'select',
      'from',
    ]);
    const unqualifiedCalls = [...sql.matchAll(/(?<![.\w"])([a-z_][a-z0-9_]*)\s*\(/gi)]
      .filter((match) => !constructs.has(match[1]!.toLowerCase()))
      // A table's column list after its alias: INSERT INTO hookline.messages AS m (...)
      .filter((match) => !/\bAS\s+$/i.test(sql.slice(Math.max(0, match.index - 4), match.index)))
      .map((match) => match[1]);
    expect(unqualifiedCalls, 'calls without a schema').toEqual([]);
    // A searched CASE (CASE WHEN condition) compares nothing itself; CASE x WHEN y looks up `=`.
    const lookups =
      sql.match(/\b(IN|LIKE|ILIKE|SIMILAR|BETWEEN|NULLIF|DISTINCT|ANY|SOME|ALL|CASE(?!\s+WHEN\b))\b/gi) ?? [];
    expect(lookups, 'constructs that resolve an operator by search_path').toEqual([]);
  });

  it('would call the copies for any unqualified name', async () => {
    await expect(shadowed.query(`SELECT 'a'::pg_catalog.text = 'a'::pg_catalog.text`)).rejects.toThrow(
      /shadow = called/,
    );
    await expect(shadowed.query(`SELECT length('a'::pg_catalog.text)`)).rejects.toThrow(/shadow length called/);
    await expect(shadowed.query(`SELECT 'a'::text`)).rejects.toThrow(/domain text violates/);
  });

  it('records events, by call and through a trigger, calling none of them', async () => {
    const { rows } = await shadowed.query<{ plain: string; keyed: string; repeat: string }>(
      `SELECT hookline.send($1, 'spice.harvested', '{"planet": "Ix"}') AS plain,
              hookline.send($1, 'spice.harvested', '{"planet": "Tleilax"}', 'shadow-1') AS keyed,
              hookline.send($1, 'spice.harvested', '{"planet": "Tleilax"}', 'shadow-1') AS repeat`,
      [APP],
    );
    expect(rows[0]!.plain).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(rows[0]!.repeat).toBe(rows[0]!.keyed);
    await shadowed.query(`INSERT INTO public.spice_harvests (planet, tonnes) VALUES ('Ecaz', 5)`);
    const { rows: recorded } = await db.pool.query(
      `SELECT payload->>'planet' AS planet, idempotency_key FROM hookline.messages
        WHERE app_id = $1 AND payload->>'planet' IN ('Ix', 'Tleilax', 'Ecaz') ORDER BY 1`,
      [APP],
    );
    expect(recorded).toEqual([
      { planet: 'Ecaz', idempotency_key: null },
      { planet: 'Ix', idempotency_key: null },
      { planet: 'Tleilax', idempotency_key: 'shadow-1' },
    ]);
  });

  it.each([
    [
      'a payload over the limit',
      `$1, 'spice.harvested', $2::pg_catalog.jsonb`,
      /payload is \d+ bytes as JSON, more than the limit/,
    ],
    ['a payload that is no object', `$1, 'spice.harvested', '[1]'`, /payload must be a JSON object, got array/],
    [
      'an empty idempotency key',
      `$1, 'spice.harvested', '{}', ''`,
      /idempotency_key must be 1 to 256 characters, got 0/,
    ],
    ['a key with a space', `$1, 'spice.harvested', '{}', 'abc def'`, /character 4 is U\+0020/],
    ['an unknown app', `'app_nope', 'spice.harvested', '{}'`, /unknown app 'app_nope'/],
    ['an unknown event type', `$1, 'spice.unknown', '{}'`, /unknown event type 'spice.unknown'/],
    ['an archived event type', `$1, 'old.thing', '{}'`, /event type 'old.thing' of app .* is archived/],
  ])('refuses %s in its own words', async (_case, args, error) => {
    const big = JSON.stringify({ data: randomBytes(600_000).toString('hex') });
    const params = args.includes('$2') ? [APP, big] : args.includes('$1') ? [APP] : [];
    const failure = shadowed.query(`SELECT hookline.send(${args})`, params);
    await expect(failure).rejects.toThrow(error);
    await expect(failure).rejects.not.toThrow(/shadow/);
  });
});

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function pgLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
