// `npm run bench:dashboard`: does the dashboard stay fast with 10 million attempts stored?
// Fills a fresh embedded PostgreSQL with a week of history for one app and 100 endpoints (10 M
// attempts by default, over a quarter as many messages and deliveries, plus the rollups
// and queue samples the worker would have written), starts the real server (scripts/start.ts) on it,
// and times the /api/v1 calls the dashboard's pages make, over HTTP with an API key.
// Target (dashboard issue): every overview response under 200 ms at 10 M attempts. A payload search
// (issue 23 item 10) answers its first page within HOOKLINE_SEARCH_BUDGET_MS and a round trip: target
// 2 s over 30 days at 10 M messages (`--attempts=40000000 --days=30`); its row says how far back that
// first page got. It ends with every index of Hookline's schema, its size, and the calls that scanned it:
// the justification (or not) of each index a write pays for.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort } from '../lib/database/embedded-postgres';
import { startBenchDatabase, type BenchDatabaseServer } from './bench-database';

const ROOT = resolve(import.meta.dirname, '..');
const APP_ID = 'app_bench_dashboard';
const ENDPOINTS = 100;
let DAYS = 7;
const EVENT_TYPES = ['order.created', 'order.paid', 'order.shipped', 'customer.created', 'invoice.paid'];
const TARGET_MS = 200;
const RUNS = 20;
const SEARCH_TARGET_MS = 2000;
const SEARCH_RUNS = 5;

const HELP = `Usage: npm run bench:dashboard -- [--attempts=N] [--days=N]

  --attempts=N   attempts stored before measuring (default 10000000; 4 per delivery, one delivery a message)
  --days=N       the history they are spread over (default 7; 30 for the search target's shape)
  --keep         leave the database and server running after measuring, until Ctrl-C (for EXPLAIN)
  --database-url=URL
                 measure again on the database another run's --keep left filled (same --attempts and
                 --days): a fresh server of the current code, no fill; before and after on the same rows
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      attempts: { type: 'string' },
      days: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const attempts = Number(values.attempts ?? 10_000_000);
  if (!Number.isInteger(attempts) || attempts < 4)
    throw new Error(`--attempts must be an integer >= 4, got "${values.attempts}"`);

  DAYS = Number(values.days ?? DAYS);
  if (!Number.isInteger(DAYS) || DAYS < 1) throw new Error(`--days must be an integer >= 1, got "${values.days}"`);
  console.log(`Hookline dashboard benchmark, ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}, ${Math.round(totalmem() / 2 ** 30)} GB`);
  let server: BenchDatabaseServer | undefined;
  let web: ChildProcess | undefined;
  const dataDir = await mkdtemp(join(tmpdir(), 'hookline-bench-dashboard-'));
  try {
    let url = values['database-url'];
    if (url) console.log(`Measuring on ${url}, filled by an earlier run (no fill)`);
    else {
      server = await startBenchDatabase();
      url = await server.create('bench_dashboard');
      await fill(url, attempts);
    }
    const port = await freePort();
    web = await startServer(url, port, dataDir);
    const { apiKey } = JSON.parse(await readFile(join(dataDir, 'credentials.json'), 'utf8')) as { apiKey: string };
    const { results, indexes } = await measure(`http://127.0.0.1:${port}`, apiKey, url);
    report(results, indexes, attempts);
    const resultsDir = join(import.meta.dirname, 'results');
    await mkdir(resultsDir, { recursive: true });
    const file = join(resultsDir, `dashboard-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await writeFile(file, `${JSON.stringify({ attempts, results, indexes }, null, 2)}\n`);
    console.log(`\nResults written to ${file}`);
    if (results.some((result) => result.p95Ms >= result.targetMs)) process.exitCode = 1;
    if (values.keep) {
      console.log(`\n--keep: the database stays up until Ctrl-C: ${url}\nserver: http://127.0.0.1:${port}`);
      await new Promise((resolve) => process.once('SIGINT', resolve));
    }
  } finally {
    if (web) await stopServer(web);
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A week of history shaped like production: mostly successes, a failing endpoint or two, retries. */
async function fill(url: string, attempts: number): Promise<void> {
  const deliveries = Math.floor(attempts / 4);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const step = async (label: string, statement: string, params: unknown[] = []) => {
    const started = Date.now();
    process.stdout.write(`  ${label} ...`);
    await client.query(statement, params);
    console.log(` ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    console.log(
      `Filling: ${deliveries.toLocaleString('en-US')} messages and deliveries, ${attempts.toLocaleString('en-US')} attempts over ${DAYS} days`,
    );
    // Loading only; the measured server runs with the database's durable settings.
    await client.query('SET synchronous_commit = off');
    await step('app, event types, endpoints', `INSERT INTO hookline.apps (id, name) VALUES ($1, 'Dashboard bench')`, [
      APP_ID,
    ]);
    await client.query(`INSERT INTO hookline.event_types (app_id, name) SELECT $1, unnest($2::text[])`, [
      APP_ID,
      EVENT_TYPES,
    ]);
    await client.query(
      `INSERT INTO hookline.endpoints (id, app_id, url, description)
       SELECT format('ep_bench_%s', lpad(e::text, 3, '0')), $1, format('https://hooks%s.example.com/in', e), format('Receiver %s', e)
         FROM generate_series(0, $2::int - 1) AS e`,
      [APP_ID, ENDPOINTS],
    );
    // Message g is created at a point spread evenly over the days; its delivery goes to endpoint g % 100.
    // Its id carries that time, as hookline.send's would (and g in its last hex digits): the time
    // partitions and the payload search walk by it. written_by NULL: fanned out already, or the
    // server's worker would fan out the whole history again.
    await step(
      'messages',
      `INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
       SELECT (left(hookline.id_at('', t), 12) || lpad(to_hex(g), 20, '0'))::uuid, '${APP_ID}', ($2::text[])[1 + g % ${EVENT_TYPES.length}],
              jsonb_build_object('id', g, 'total', g % 1000, 'currency', 'EUR'), t, NULL
         FROM generate_series(1, $1) AS g,
              LATERAL (SELECT now() - make_interval(secs => ($1 - g)::float8 * ${DAYS * 86_400} / $1) AS t) AS at`,
      [deliveries, EVENT_TYPES],
    );
    // 96% succeeded, 3% dead (endpoints 7 and 42 fail a lot), 1% waiting for a retry tomorrow (so the
    // server's worker has nothing due during the measurement).
    await step(
      'deliveries',
      `INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                        next_attempt_at, claimable_at, last_attempt_at, last_status_code,
                                        last_error_class, created_at, updated_at)
       SELECT m.id, m.app_id, m.id, format('ep_bench_%s', lpad((g % ${ENDPOINTS})::text, 3, '0')),
              m.event_type, s.state, 4, CASE WHEN s.state = 'pending' THEN now() + interval '1 day' ELSE m.created_at END,
              CASE WHEN s.state = 'pending' THEN now() + interval '1 day' END,
              m.created_at, CASE s.state WHEN 'succeeded' THEN 200 ELSE 503 END,
              CASE s.state WHEN 'succeeded' THEN NULL ELSE 'http_5xx' END, m.created_at, m.created_at
         FROM hookline.messages AS m,
              LATERAL (SELECT ('x' || right(replace(m.id::text, '-', ''), 16))::bit(64)::bigint AS g) AS n,
              LATERAL (SELECT CASE WHEN g % 100 = 0 THEN 'pending'
                                   WHEN g % ${ENDPOINTS} IN (7, 42) AND g % 3 = 0 THEN 'dead'
                                   ELSE 'succeeded' END AS state) AS s`,
    );
    // Four attempts per delivery: three failures (timeouts, resets, 5xx) and a last one that decided it.
    await step(
      'attempts',
      `INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                      started_at, duration_ms, status_code, error_class, error_message,
                                      request_headers, response_headers, response_body)
       SELECT format('atmpt_%s_%s', replace(d.id::text, '-', ''), a), d.app_id, d.id, d.message_id, d.endpoint_id, a, 'bench',
              d.created_at + make_interval(secs => a * 5), 20 + (hashtext(d.id::text) & 255) + a * 10,
              CASE WHEN a < 4 THEN CASE a WHEN 1 THEN NULL WHEN 2 THEN 503 ELSE 500 END ELSE d.last_status_code END,
              CASE WHEN a < 4 THEN CASE a WHEN 1 THEN 'timeout' WHEN 2 THEN 'http_5xx' ELSE 'http_5xx' END ELSE d.last_error_class END,
              CASE WHEN a = 1 THEN 'no complete response within 15000 ms' END,
              '{"content-type": "application/json", "webhook-id": "msg_x"}', '{"content-type": "text/plain"}', 'ok'
         FROM hookline.deliveries AS d, generate_series(1, 4) AS a`,
    );
    for (const [table, column, unit] of [
      ['stats_minutely', 'minute', 'minute'],
      ['stats_hourly', 'hour', 'hour'],
    ] as const) {
      await step(`${unit}ly rollups (as the worker writes them)`, rollupsFromAttempts(table, column, unit));
      await step(
        `per-app ${unit}ly rollups`,
        `INSERT INTO hookline.stats_app_${unit === 'minute' ? 'minutely' : 'hourly'}
                (${column}, app_id, outcome, error_class, status_code, attempts, duration_ms_sum, latency_buckets)
         SELECT ${column}, app_id, outcome, error_class, status_code, sum(attempts), sum(duration_ms_sum),
                hookline.sum_latency_histograms(latency_buckets)
           FROM hookline.${table} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1`,
      );
    }
    await step(
      'queue depth samples',
      `INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
       SELECT minute, '${APP_ID}', state, (100 + 50 * sin(extract(epoch FROM minute) / 3600))::bigint
         FROM generate_series(date_trunc('minute', now() - interval '${DAYS} days'), now(), interval '1 minute') AS minute,
              unnest(ARRAY['pending', 'scheduled', 'delivering', 'dead']) AS state`,
    );
    await step('VACUUM ANALYZE', 'VACUUM ANALYZE');
    const { rows } = await client.query<{ table: string; rows: string; size: string }>(
      `SELECT relname AS table, to_char(n_live_tup, 'FM999,999,999') AS rows, pg_size_pretty(pg_total_relation_size(relid)) AS size
         FROM pg_stat_user_tables WHERE schemaname = 'hookline' AND n_live_tup > 0 ORDER BY n_live_tup DESC`,
    );
    console.log(rows.map((row) => `  ${row.table.padEnd(22)} ${row.rows.padStart(12)} rows  ${row.size}`).join('\n'));
  } finally {
    await client.end();
  }
}

/** The per-endpoint rollups the worker would have written for every attempt, per minute or per hour. */
function rollupsFromAttempts(table: string, timeColumn: string, unit: 'minute' | 'hour'): string {
  const buckets = Array.from(
    { length: 15 },
    (_, bucket) => `count(*) FILTER (WHERE width_bucket(duration_ms, hookline.latency_bucket_bounds_ms()) = ${bucket})`,
  );
  return `INSERT INTO hookline.${table} (${timeColumn}, app_id, endpoint_id, outcome, error_class, status_code, attempts,
                                         duration_ms_sum, latency_buckets)
          SELECT date_trunc('${unit}', started_at), app_id, endpoint_id,
                 CASE WHEN error_class IS NULL THEN 'succeeded' ELSE 'failed' END, coalesce(error_class, ''),
                 coalesce(status_code, 0), count(*), sum(duration_ms), ARRAY[${buckets.join(', ')}]
            FROM hookline.attempts GROUP BY 1, 2, 3, 4, 5, 6
           -- In time order, as the worker writes them minute after minute: a range's rows sit on
           -- neighbouring pages, not scattered over the table as a hash aggregate's output would be.
           ORDER BY 1`;
}

async function startServer(databaseUrl: string, port: number, dataDir: string): Promise<ChildProcess> {
  console.log('Starting the server (scripts/start.ts; builds the dashboard first if the build is stale) ...');
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
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

async function measure(
  baseUrl: string,
  apiKey: string,
  databaseUrl: string,
): Promise<{ results: CallResult[]; indexes: IndexUse[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ id: string }>(
    `SELECT hookline.public_id('dlv', id) AS id FROM hookline.deliveries WHERE app_id = $1 AND state = 'dead' ORDER BY created_at DESC LIMIT 1`,
    [APP_ID],
  );
  const { rows: someMessage } = await client.query<{ id: string }>(
    `SELECT hookline.public_id('msg', id) AS id FROM hookline.messages WHERE app_id = $1 ORDER BY created_at DESC OFFSET 1234 LIMIT 1`,
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
  console.log(`Timing ${calls.length} dashboard calls, ${RUNS} runs each after 2 warm-up runs ...`);
  const results: CallResult[] = [];
  const all: [page: string, path: string, runs: number, targetMs: number][] = [
    ...calls.map(([page, path]): [string, string, number, number] => [page, path, RUNS, TARGET_MS]),
    ...searches.map(([page, path]): [string, string, number, number] => [page, path, SEARCH_RUNS, SEARCH_TARGET_MS]),
  ];
  // Which indexes the calls scan: the scans while they ran, beside what the idle server (its worker
  // and chores) scanned in a window before them, scaled to as long.
  const idleFrom = await indexScans(client);
  const idleStarted = performance.now();
  const idleTo = await indexScans(client);
  const idleMs = performance.now() - idleStarted;
  const callsFrom = await indexScans(client);
  const callsStarted = performance.now();
  for (const [page, path, runs, targetMs] of all) {
    const timings: number[] = [];
    let bytes = 0;
    let note: string | undefined;
    for (let run = 0; run < runs + 2; run++) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      const text = await response.text();
      const elapsed = performance.now() - started;
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
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

function report(results: CallResult[], indexes: IndexUse[], attempts: number): void {
  console.log(
    `\nDashboard API at ${attempts.toLocaleString('en-US')} attempts, ${(attempts / 4).toLocaleString('en-US')} messages over ${DAYS} days ` +
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
