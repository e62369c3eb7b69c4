// `npm run bench:dashboard`: does the dashboard stay fast with millions of deliveries stored?
// Fills a fresh embedded PostgreSQL with days of history for one app and 100 endpoints
// (bench/dashboard-history.ts: 2.5 M deliveries over 7 days by default, in daily time partitions, with
// the attempt rows of failures and the rollups and queue samples the worker would have written), starts
// the real server (scripts/start.ts) on it, and times the /api/v1 calls the dashboard's pages make,
// over HTTP with an API key.
// Targets: every page's call under 200 ms (p95), at 100 M deliveries for issue 22
// (`--deliveries=100000000`). A payload search (issue 23 item 10) answers its first page within
// HOOKLINE_SEARCH_BUDGET_MS and a round trip: target 2 s over 30 days at 10 M messages
// (`--deliveries=10000000 --days=30`); its row says how far back that first page got. It ends with
// every index of Hookline's schema, its size, and the calls that scanned it: the justification (or
// not) of each index a write pays for.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../lib/database/embedded-postgres';
import { startBenchDatabase, type BenchDatabaseServer } from './bench-database';
import { connectGivenDatabase } from './given-database';
import { BENCH_APP_ID, fillHistory, messagesOf, type HistoryShape } from './dashboard-history';
import { explainPages, forgetExplain, prepareExplain, type PagePlans } from './dashboard-plans';

const ROOT = resolve(import.meta.dirname, '..');
const APP_ID = BENCH_APP_ID;
const TARGET_MS = 200;
const RUNS = 20;
const SEARCH_TARGET_MS = 2000;
const SEARCH_RUNS = 5;

const HELP = `Usage: npm run bench:dashboard -- [--deliveries=N] [--endpoints-per-message=N] [--days=N]

  --deliveries=N deliveries stored before measuring (default 2500000; ~1 in 27 with failed attempts)
  --endpoints-per-message=N
                 how many of the app's 100 endpoints each message goes to (default 1: as many messages
                 as deliveries)
  --days=N       the history they are spread over (default 7; 30 for the search target's shape)
  --keep         leave the database and server running after measuring, until Ctrl-C (for EXPLAIN)
  --database-url=URL
                 measure again on the database another run's --keep left filled (same --deliveries,
                 --endpoints-per-message and --days): a fresh server of the current code, no fill;
                 before and after on the same rows
  --server-url=URL
                 fill and measure on this PostgreSQL (14+) instead of the embedded one: a role that may
                 create databases, on the server's maintenance database, e.g. the Debian 15 that
                 bench/start-debian-postgres.ts starts; the filled database is dropped at the end
  --server-log=PATH
                 the server's log file, where the plans pass reads what auto_explain wrote (default:
                 server.log in the server's data folder, where the embedded PostgreSQL writes it)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      deliveries: { type: 'string' },
      'endpoints-per-message': { type: 'string' },
      days: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      'server-log': { type: 'string' },
      'server-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const shape: HistoryShape = {
    deliveries: wholeNumber('--deliveries', values.deliveries, 2_500_000, 100),
    endpointsPerMessage: wholeNumber('--endpoints-per-message', values['endpoints-per-message'], 1, 1, 100),
    days: wholeNumber('--days', values.days, 7, 1),
  };
  console.log(`Hookline dashboard benchmark, ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}, ${Math.round(totalmem() / 2 ** 30)} GB`);
  let server: BenchDatabaseServer | undefined;
  let web: ChildProcess | undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'hookline-bench-dashboard-'));
  try {
    let url = values['database-url'];
    if (url) console.log(`Measuring on ${url}, filled by an earlier run (no fill)`);
    else {
      server = values['server-url'] ? await connectGivenDatabase(values['server-url']) : await startBenchDatabase();
      console.log(`PostgreSQL ${server.version} (${values['server-url'] ? 'given by --server-url' : server.origin})`);
      url = await server.create('bench_dashboard');
      await fillHistory(url, shape);
    }
    // Before the server starts, so that its connections load auto_explain (idle until the plans pass).
    const noPlans = await prepareExplain(url);
    const port = await freePort();
    const running = await startServer(url, port, dataDir);
    web = running;
    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const baseUrl = `http://127.0.0.1:${port}`;
    const calls = await withClient(url, dashboardCalls);
    const { results, indexes } = await measure(baseUrl, apiKey, url, calls);
    report(results, indexes, shape);
    // After the timings, which auto_explain's instrumentation would slow: one more call of each page
    // with every statement's plan logged.
    const plans = noPlans
      ? noPlans
      : await explainPages(
          url,
          calls.map(({ page, path }) => ({ page, call: () => get(baseUrl, apiKey, path).then(() => {}) })),
          values['server-log'],
        );
    if (noPlans === null) await forgetExplain(url);
    const resultsDir = join(import.meta.dirname, 'results');
    await mkdir(resultsDir, { recursive: true });
    const stem = join(resultsDir, `dashboard-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    if (typeof plans === 'string') console.log(`\nNo plans: ${plans}`);
    else {
      reportPlans(plans.pages);
      await writeFile(`${stem}-plans.txt`, plans.text);
    }
    const file = `${stem}.json`;
    await writeFile(
      file,
      `${JSON.stringify({ shape, results, indexes, plans: typeof plans === 'string' ? plans : plans.pages }, null, 2)}\n`,
    );
    console.log(`\nResults written to ${file}${typeof plans === 'string' ? '' : ` and ${stem}-plans.txt`}`);
    if (results.some((result) => result.p95Ms >= result.targetMs)) process.exitCode = 1;
    if (values.keep) {
      console.log(`\n--keep: the database stays up until Ctrl-C: ${url}\nserver: http://127.0.0.1:${port}`);
      // A signal listener alone does not keep Node running: once the server's pipes closed (it was stopped
      // by hand), the bench exited at once, its finally never ran, and the embedded PostgreSQL was left
      // running with the whole fill. Held open until Ctrl-C or the server's exit, then cleaned up.
      const keepAlive = setInterval(() => {}, 60_000);
      await new Promise((resolve) => {
        process.once('SIGINT', resolve);
        running.once('exit', () => {
          console.log('The server exited; stopping the database.');
          resolve(undefined);
        });
      });
      clearInterval(keepAlive);
    }
  } finally {
    if (web) await stopServer(web);
    // On a server of the user's, the filled database goes with the run (the embedded server goes whole).
    if (server && values['server-url']) await server.drop('bench_dashboard');
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function wholeNumber(flag: string, given: string | undefined, fallback: number, min: number, max = Infinity): number {
  const value = Number(given ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(
      `${flag} must be a whole number from ${min}${max === Infinity ? '' : ` to ${max}`}, got "${given}"`,
    );
  return value;
}

async function startServer(databaseUrl: string, port: number, dataDir: string): Promise<ChildProcess> {
  console.log('Starting the server (scripts/start.ts; builds the dashboard first if the build is stale) ...');
  // Without PGAPPNAME: the plans pass tells the web's statements by their connections' own name.
  const { PGAPPNAME: _appName, ...environment } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: {
      ...environment,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_METRICS_PORT: '0',
      HOOKLINE_API_RATE_LIMIT: '0',
      HOOKLINE_LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Hookline is running')) resolvePromise();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (code ${code}):\n${output.slice(-2000)}`)));
  });
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

interface CallResult {
  page: string;
  call: string;
  targetMs: number;
  /** A search's first page: its rows and how far back it searched. */
  note?: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  bytes: number;
}

/** An index of schema hookline, and how much the dashboard calls scanned it beyond the idle server. */
interface IndexUse {
  table: string;
  index: string;
  bytes: number;
  /** Scans while the calls ran. */
  scans: number;
  /** What the idle server (its worker, its chores) scanned in as long, at the rate of an idle window. */
  idleScans: number;
}

/**
 * Index scans so far per index of schema hookline, a partitioned index counting its partitions'
 * (pg_stat_user_indexes, through pg_inherits). Read after every backend has reported its own: an idle
 * backend with scans to report does so within 10 s (PGSTAT_IDLE_INTERVAL).
 */
async function indexScans(client: pg.Client): Promise<Map<string, number>> {
  await new Promise((resolvePromise) => setTimeout(resolvePromise, 11_000));
  const { rows } = await client.query<{ name: string; scans: string }>(
    `SELECT coalesce(parent.relname, s.indexrelname) AS name, sum(s.idx_scan)::text AS scans
       FROM pg_stat_user_indexes AS s
       LEFT JOIN pg_inherits AS i ON i.inhrelid = s.indexrelid
       LEFT JOIN pg_class AS parent ON parent.oid = i.inhparent
      WHERE s.schemaname = 'hookline'
      GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.name, Number(row.scans)]));
}

/** Every index of schema hookline (partitioned ones once) with its table and size on disk. */
async function hooklineIndexes(client: pg.Client): Promise<{ index: string; table: string; bytes: number }[]> {
  const { rows } = await client.query<{ index: string; table: string; bytes: string }>(
    `SELECT c.relname AS index, t.relname AS table,
            (CASE WHEN c.relkind = 'I'
                  THEN (SELECT coalesce(sum(pg_relation_size(p.relid)), 0) FROM pg_partition_tree(c.oid) AS p)
                  ELSE pg_relation_size(c.oid) END)::text AS bytes
       FROM pg_index AS x
       JOIN pg_class AS c ON c.oid = x.indexrelid
       JOIN pg_class AS t ON t.oid = x.indrelid
       JOIN pg_namespace AS n ON n.oid = t.relnamespace
      WHERE n.nspname = 'hookline' AND NOT t.relispartition
      ORDER BY t.relname, c.relname`,
  );
  return rows.map((row) => ({ index: row.index, table: row.table, bytes: Number(row.bytes) }));
}

/** A call behind a dashboard page, timed `runs` times after 2 warm-ups. */
interface PageCall {
  page: string;
  path: string;
  runs: number;
  targetMs: number;
}

/** The calls the dashboard's pages make, on rows of the filled history (a dead delivery, a message). */
async function dashboardCalls(client: pg.Client): Promise<PageCall[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries
      WHERE app_id = $1 AND endpoint_id = 'ep_bench_042' AND state = 'dead' ORDER BY created_at DESC LIMIT 1`,
    [APP_ID],
  );
  const { rows: someMessage } = await client.query<{ id: string }>(
    // From the last day's ids only: over every period, this one statement took 14 s at 100 M.
    `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages
      WHERE app_id = $1 AND id >= hookline.id_at('', now() - interval '1 day')::uuid
      ORDER BY id DESC OFFSET 1234 LIMIT 1`,
    [APP_ID],
  );
  const deadDelivery = rows[0]!.id;
  const messageId = someMessage[0]!.id;
  const now = Date.now();
  const window = (ms: number) => `from=${new Date(now - ms).toISOString()}&to=${new Date(now).toISOString()}`;
  const app = `/apps/${APP_ID}`;
  const calls: [page: string, path: string][] = [
    ['overview 15 min', `/stats?${window(15 * 60_000)}`],
    ['overview 1 h', `/stats?${window(3_600_000)}`],
    ['overview 24 h', `/stats?${window(86_400_000)}`],
    ['overview 7 d', `/stats?${window(7 * 86_400_000)}`],
    ['overview 24 h, one app', `/stats?appId=${APP_ID}&${window(86_400_000)}`],
    ['endpoint page 24 h', `/stats?endpointId=ep_bench_042&${window(86_400_000)}`],
    // What the endpoint's page itself calls (components/endpoints/endpoint-detail.tsx): the endpoint
    // with its health, and its own stats (no queue).
    ['endpoint page: endpoint', `${app}/endpoints/ep_bench_042`],
    ['endpoint page: its stats', `${app}/endpoints/ep_bench_042/stats?${window(86_400_000)}`],
    ['endpoints list', `${app}/endpoints`],
    ['explorer: latest', `${app}/deliveries?limit=50`],
    ['explorer: dead', `${app}/deliveries?state=dead&limit=50`],
    ['explorer: failed', `${app}/deliveries?state=failed&limit=50`],
    ['explorer: waiting for a retry', `${app}/deliveries?state=retrying&limit=50`],
    ['explorer: one endpoint', `${app}/deliveries?endpointId=ep_bench_042&limit=50`],
    ['explorer: error class', `${app}/deliveries?errorClass=http_5xx&limit=50`],
    ['explorer: status 503, 24 h', `${app}/deliveries?statusCode=503&${window(86_400_000)}&limit=50`],
    ['explorer: one message id', `${app}/deliveries?messageId=${messageId}&limit=50`],
    ['explorer: at least 4 attempts', `${app}/deliveries?minAttempts=4&limit=50`],
    ['messages: latest', `${app}/messages?limit=50`],
    ['messages: one event type', `${app}/messages?eventType=order.paid&limit=50`],
    // Find anything (the dashboard's search): each through an index the producers already pay for, or
    // (a condition on the deliveries) a walk back through time under the search budget.
    ['messages: by id', `${app}/messages?id=${messageId}`],
    ['messages: idempotency key', `${app}/messages?idempotencyKey=order-1234567`],
    ['messages: a delivery got 503', `${app}/messages?statusCode=503&limit=50`],
    ['messages: error class', `${app}/messages?errorClass=http_5xx&limit=50`],
    // One message in 1,000 has total = 999: a full page reads ~50,000 of the day's ~357,000 messages.
    [
      'messages: payload field, 24 h',
      `${app}/messages?payloadPath=total&payloadValue=999&${window(86_400_000)}&limit=50`,
    ],
    ['delivery page', `${app}/deliveries/${deadDelivery}`],
  ];
  // Payload searches over 30 days, first page (issue 23 item 10): no index, a walk back through the
  // time partitions for HOOKLINE_SEARCH_BUDGET_MS. One message in 1,000 has "total": 999; no currency
  // contains "usd", so that search walks as far as its budget takes it.
  const month = window(30 * 86_400_000);
  const searches: [page: string, path: string][] = [
    ['search: substring, 30 d', `${app}/messages?search=${encodeURIComponent('"total": 999')}&${month}&limit=50`],
    ['search: path equals, 30 d', `${app}/messages?payloadPath=total&payloadValue=999&${month}&limit=50`],
    [
      'search: path contains, none',
      `${app}/messages?payloadPath=currency&payloadValue=usd&payloadMatch=contains&${month}&limit=50`,
    ],
    ['search: deliveries, 30 d', `${app}/deliveries?search=${encodeURIComponent('"total": 999')}&${month}&limit=50`],
    // An error class no delivery had: the explorer walks back under the budget (no index serves the
    // class); read in one statement, it scanned the app's whole history.
    ['explorer: error class none had', `${app}/deliveries?errorClass=tls&limit=50`],
  ];
  return [
    ...calls.map(([page, path]) => ({ page, path, runs: RUNS, targetMs: TARGET_MS })),
    ...searches.map(([page, path]) => ({ page, path, runs: SEARCH_RUNS, targetMs: SEARCH_TARGET_MS })),
  ];
}

/** GETs one call's path from the server; throws on an error status. */
async function get(baseUrl: string, apiKey: string, path: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return text;
}

async function measure(
  baseUrl: string,
  apiKey: string,
  databaseUrl: string,
  all: PageCall[],
): Promise<{ results: CallResult[]; indexes: IndexUse[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const now = Date.now();
  console.log(`Timing ${all.length} dashboard calls, 20 runs each (a search 5) after 2 warm-up runs ...`);
  const results: CallResult[] = [];
  // Which indexes the calls scan: the scans while they ran, beside what the idle server (its worker
  // and chores) scanned in a window before them, scaled to as long.
  const idleFrom = await indexScans(client);
  const idleStarted = performance.now();
  const idleTo = await indexScans(client);
  const idleMs = performance.now() - idleStarted;
  const callsFrom = await indexScans(client);
  const callsStarted = performance.now();
  for (const { page, path, runs, targetMs } of all) {
    const timings: number[] = [];
    let bytes = 0;
    let note: string | undefined;
    for (let run = 0; run < runs + 2; run++) {
      const started = performance.now();
      const text = await get(baseUrl, apiKey, path);
      const elapsed = performance.now() - started;
      bytes = text.length;
      if (run >= 2) timings.push(elapsed);
      const body = JSON.parse(text) as { data?: unknown[]; searchedBackTo?: string | null; nextCursor?: string | null };
      if (body.searchedBackTo) {
        const hours = (now - Date.parse(body.searchedBackTo)) / 3_600_000;
        note = `${body.data?.length ?? 0} rows, searched ${hours.toFixed(1)} h back${body.nextCursor ? '' : ' (all)'}`;
      }
    }
    timings.sort((a, b) => a - b);
    const at = (share: number) =>
      Math.round(timings[Math.min(timings.length - 1, Math.floor(share * timings.length))]!);
    results.push({
      page,
      call: `GET /api/v1${path.split('?')[0]}`,
      targetMs,
      note,
      p50Ms: at(0.5),
      p95Ms: at(0.95),
      maxMs: at(1),
      bytes,
    });
  }
  const callsTo = await indexScans(client);
  const callsMs = performance.now() - callsStarted;
  const delta = (to: Map<string, number>, from: Map<string, number>, name: string) =>
    (to.get(name) ?? 0) - (from.get(name) ?? 0);
  const indexes = (await hooklineIndexes(client)).map(({ index, table, bytes }) => ({
    table,
    index,
    bytes,
    scans: delta(callsTo, callsFrom, index),
    idleScans: Math.round((delta(idleTo, idleFrom, index) * callsMs) / idleMs),
  }));
  await client.end();
  return { results, indexes };
}

function report(results: CallResult[], indexes: IndexUse[], shape: HistoryShape): void {
  console.log(
    `\nDashboard API at ${shape.deliveries.toLocaleString('en-US')} deliveries, ${messagesOf(shape).toLocaleString('en-US')} messages over ${shape.days} days ` +
      `(target: p95 < ${TARGET_MS} ms; a search's first page < ${SEARCH_TARGET_MS} ms)`,
  );
  console.log('| page                        | p50 ms | p95 ms | max ms | bytes   | met | search');
  console.log('|-----------------------------|--------|--------|--------|---------|-----|-------');
  for (const result of results) {
    console.log(
      `| ${result.page.padEnd(27)} | ${String(result.p50Ms).padStart(6)} | ${String(result.p95Ms).padStart(6)} | ` +
        `${String(result.maxMs).padStart(6)} | ${String(result.bytes).padStart(7)} | ${result.p95Ms < result.targetMs ? 'yes' : 'NO '} |` +
        (result.note ? ` ${result.note}` : ''),
    );
  }
  // Issue 22: "the fewest indexes the dashboard needs, each justified by a bench:dashboard query that
  // uses it". An index the calls did not scan beyond the idle server is paid for by every write and
  // justified by none of these pages (the worker, deletes and other calls may still need it).
  console.log(`\nIndexes of schema hookline: scans while the calls ran, and what the idle server scans in as long`);
  console.log('| table | index | MB | scans during the calls | idle server, as long |');
  console.log('|-------|-------|----|------------------------|----------------------|');
  for (const use of indexes) {
    console.log(
      `| ${use.table} | ${use.index} | ${(use.bytes / 2 ** 20).toFixed(0)} | ${use.scans} | ${use.idleScans} |`,
    );
  }
}

/** Per page: what its statements cost in PostgreSQL and which time partitions they read. */
function reportPlans(pages: PagePlans[]): void {
  console.log(
    `\nPlans (one call of each page, every statement explained by auto_explain; the full plans in the -plans.txt file)`,
  );
  console.log('| page | statements | ms in PostgreSQL | time partitions read | pruned while running |');
  console.log('|------|------------|------------------|----------------------|----------------------|');
  for (const page of pages) {
    const read = page.partitionsRead;
    console.log(
      `| ${page.page} | ${page.statements} | ${page.databaseMs.toFixed(1)} | ${read.length}${read.length > 0 && read.length <= 3 ? ` (${read.join(', ')})` : ''} | ${page.subplansRemoved} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
