// The plans behind each dashboard page, as the server really ran them: PostgreSQL's auto_explain logs
// every statement of one call of each page with EXPLAIN ANALYZE's detail, and this reads them back from
// the server's log. Issue 22 asks for partition pruning visible in the plans: a page that reads a day
// should read that day's time partitions, not all of them.
//
// How a statement is tied to its page: the web's connections name themselves 'hookline web'
// (lib/database/pg.ts), the log's line prefix is set to show that name for the pass, and the bench
// writes a marker line into the log before each call. The worker's statements, logged meanwhile, carry
// 'hookline worker' and are left out. Needs a superuser (ALTER SYSTEM, ALTER DATABASE) and the server's
// log file on this machine: the embedded server's is server.log in its data folder.
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';

export interface PagePlans {
  page: string;
  /** Statements the call ran on the web's connections. */
  statements: number;
  /** Their execution time, as EXPLAIN ANALYZE measured it (timing adds to it). */
  databaseMs: number;
  /** Time partitions (of messages, deliveries, attempts) some executed node of those plans read. */
  partitionsRead: string[];
  /** Partitions pruned while executing (EXPLAIN's "Subplans Removed"), summed over the plans. */
  subplansRemoved: number;
}

export interface PlansPass {
  pages: PagePlans[];
  /** The plans themselves, page by page, for bench/results. */
  text: string;
}

const MARKER = 'hookline bench page: ';
const EXPLAIN_SETTINGS: Record<string, string> = {
  log_line_prefix: '%m [%p] %a: ',
  'auto_explain.log_min_duration': '0',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_buffers': 'on',
  'auto_explain.log_nested_statements': 'on',
};
// A partition's name after "on" (a scan of it), not an index's: a period's, the legacy's or the overflow's
// name ends at a word boundary, where an index's name goes on (_pkey, _idx).
const TIME_PARTITION =
  /\bon (?:hookline\.)?((?:messages|deliveries|attempts)_(?:p\d{8}t\d{4}|before_\d{8}t\d{4}|overflow))\b/;

/**
 * Loads auto_explain into the database's new sessions (it logs nothing until the pass sets a
 * threshold). Call before the server starts, so its connections have it. Answers why not, or null.
 */
export async function prepareExplain(databaseUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ superuser: boolean; database: string }>(
      `SELECT rolsuper AS superuser, current_database() AS database FROM pg_roles WHERE rolname = current_user`,
    );
    if (!rows[0]?.superuser) return 'the plans need a superuser (ALTER SYSTEM)';
    try {
      await client.query(`LOAD 'auto_explain'`);
    } catch (error) {
      return `the server has no auto_explain (${(error as Error).message})`;
    }
    await client.query(
      `ALTER DATABASE ${pg.escapeIdentifier(rows[0].database)} SET session_preload_libraries = 'auto_explain'`,
    );
    return null;
  } finally {
    await client.end();
  }
}

export async function forgetExplain(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `ALTER DATABASE ${pg.escapeIdentifier(await currentDatabase(client))} RESET session_preload_libraries`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Makes each call once with every statement explained, and reads the plans back from `serverLog`
 * (default: server.log in the server's data folder). Answers why not when it cannot.
 */
export async function explainPages(
  databaseUrl: string,
  pages: { page: string; call: () => Promise<void> }[],
  serverLog?: string,
): Promise<PlansPass | string> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'hookline bench' });
  await client.connect();
  try {
    const logFile =
      serverLog ??
      join(
        (await client.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`)).rows[0]!.dir,
        'server.log',
      );
    if (!existsSync(logFile)) return `no server log at ${logFile} (--server-log names it)`;
    const from = (await stat(logFile)).size;
    await client.query(`LOAD 'auto_explain'`);
    for (const [name, value] of Object.entries(EXPLAIN_SETTINGS)) {
      await client.query(`ALTER SYSTEM SET ${name} = ${pg.escapeLiteral(value)}`);
    }
    await client.query('SELECT pg_reload_conf()');
    // Every backend rereads the configuration before its next statement; give the postmaster's signal
    // a moment to reach them.
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1_000));
    try {
      for (const { page, call } of pages) {
        await client.query(`DO $$ BEGIN RAISE LOG '%', ${pg.escapeLiteral(MARKER + page)}; END $$`);
        await call();
      }
      await client.query(`DO $$ BEGIN RAISE LOG '%', ${pg.escapeLiteral(`${MARKER}(end)`)}; END $$`);
    } finally {
      for (const name of Object.keys(EXPLAIN_SETTINGS)) await client.query(`ALTER SYSTEM RESET ${name}`);
      await client.query('SELECT pg_reload_conf()');
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 500));
    return readPlans(await readFrom(logFile, from));
  } finally {
    await client.end();
  }
}

async function currentDatabase(client: pg.Client): Promise<string> {
  return (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name;
}

async function readFrom(file: string, offset: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Splits the log into entries (a prefixed line and its continuation lines) and groups the web's plans by page. */
export function readPlans(log: string): PlansPass {
  const entry = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] (.*?): ([A-Z]+): {2}(.*)$/;
  const entries: { application: string; severity: string; text: string }[] = [];
  for (const line of log.split('\n')) {
    const head = entry.exec(line);
    if (head) entries.push({ application: head[1]!, severity: head[2]!, text: head[3]! });
    else if (entries.length > 0) entries.at(-1)!.text += `\n${line}`;
  }
  const pages: PagePlans[] = [];
  const text: string[] = [];
  let current: PagePlans | null = null;
  for (const { application, severity, text: body } of entries) {
    if (severity !== 'LOG') continue;
    if (body.startsWith(MARKER)) {
      const page = body.slice(MARKER.length).split('\n')[0]!.trim();
      current =
        page === '(end)' ? null : { page, statements: 0, databaseMs: 0, partitionsRead: [], subplansRemoved: 0 };
      if (current) {
        pages.push(current);
        text.push(`\n=== ${page}\n`);
      }
      continue;
    }
    const duration = /^duration: ([\d.]+) ms\s+plan:/.exec(body);
    if (!current || application !== 'hookline web' || !duration) continue;
    current.statements++;
    current.databaseMs += Number(duration[1]);
    for (const line of body.split('\n')) {
      const partition = TIME_PARTITION.exec(line);
      if (partition && !line.includes('(never executed)') && !current.partitionsRead.includes(partition[1]!))
        current.partitionsRead.push(partition[1]!);
      const removed = /Subplans Removed: (\d+)/.exec(line);
      if (removed) current.subplansRemoved += Number(removed[1]);
    }
    text.push(`${body}\n`);
  }
  return { pages, text: text.join('\n') };
}
