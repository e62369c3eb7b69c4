// The history `npm run bench:dashboard` measures on: one app, 100 endpoints, days of deliveries in
// daily time partitions, stored as the default worker stores them. Written straight into the tables
// (the fan-out and the worker would take hours for 100 M deliveries), in the shapes they write:
// - ids carry their time (a message's at its creation, a delivery's and an attempt's at their
//   message's), so every row lands in its day's period, as a week of maintenance would have left them;
// - a success is kept on its delivery row (status, time, duration); only a failure has an attempt row
//   (HOOKLINE_KEEP_SUCCESSFUL_ATTEMPTS off, the default);
// - the per-minute and per-hour rollups are what the worker adds for each attempt, success or failure.
import pg from 'pg';

export const BENCH_APP_ID = 'app_bench_dashboard';
export const BENCH_ENDPOINTS = 100;
export const BENCH_EVENT_TYPES = ['order.created', 'order.paid', 'order.shipped', 'customer.created', 'invoice.paid'];

export interface HistoryShape {
  deliveries: number;
  /** Each message goes to this many endpoints (1 to 100). */
  endpointsPerMessage: number;
  days: number;
}

export function messagesOf(shape: HistoryShape): number {
  return Math.ceil(shape.deliveries / shape.endpointsPerMessage);
}

const TIME_PARTITIONED = [
  { table: 'messages', prefix: '' },
  { table: 'deliveries', prefix: '' },
  { table: 'attempts', prefix: 'atmpt' },
] as const;

/** Fills a freshly migrated database with the history; says each step's time and the tables' sizes. */
export async function fillHistory(
  url: string,
  shape: HistoryShape,
  say: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  const messages = messagesOf(shape);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    say(
      `Filling: ${messages.toLocaleString('en-US')} messages to ${shape.endpointsPerMessage} endpoint(s) each, ` +
        `${shape.deliveries.toLocaleString('en-US')} deliveries over ${shape.days} days`,
    );
    // Loading only; the measured server runs with the database's durable settings.
    await client.query(`SET synchronous_commit = off`);
    await client.query(`SET work_mem = '256MB'`);
    await client.query(`INSERT INTO hookline.apps (id, name) VALUES ($1, 'Dashboard bench')`, [BENCH_APP_ID]);
    await client.query(`INSERT INTO hookline.event_types (app_id, name) SELECT $1, unnest($2::text[])`, [
      BENCH_APP_ID,
      BENCH_EVENT_TYPES,
    ]);
    await client.query(
      `INSERT INTO hookline.endpoints (id, app_id, url, description)
       SELECT format('ep_bench_%s', lpad(e::text, 3, '0')), $1, format('https://hooks%s.example.com/in', e), format('Receiver %s', e)
         FROM generate_series(0, $2::int - 1) AS e`,
      [BENCH_APP_ID, BENCH_ENDPOINTS],
    );
    await layOutDailyPeriods(client, shape.days, say);
    const { rows: clock } = await client.query<{ now: string }>(`SELECT now()::text AS now`);
    await fillParts(url, shape, clock[0]!.now, say);
    await step(client, 'hourly rollups, per-app rollups, queue depth samples', ROLLUPS_FROM_MINUTES(shape.days), say);
    await step(client, 'VACUUM ANALYZE', 'VACUUM ANALYZE', say);
    // A time-partitioned table's partitions summed under its name.
    const { rows } = await client.query<{ table: string; rows: string; size: string; partitions: string }>(
      `SELECT coalesce(parent.relname, c.relname) AS table, to_char(sum(s.n_live_tup), 'FM999,999,999,999') AS rows,
              pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size,
              count(*) FILTER (WHERE parent.oid IS NOT NULL) AS partitions
         FROM pg_stat_user_tables AS s
         JOIN pg_class AS c ON c.oid = s.relid
         LEFT JOIN pg_inherits AS i ON i.inhrelid = c.oid
         LEFT JOIN pg_class AS parent ON parent.oid = i.inhparent
        WHERE s.schemaname = 'hookline'
        GROUP BY 1 HAVING sum(s.n_live_tup) > 0 ORDER BY sum(s.n_live_tup) DESC`,
    );
    say(
      rows
        .map(
          (row) =>
            `  ${row.table.padEnd(22)} ${row.rows.padStart(14)} rows  ${row.size.padStart(8)}` +
            (Number(row.partitions) > 1 ? `  (${row.partitions} partitions)` : ''),
        )
        .join('\n'),
    );
    const { rows: total } = await client.query<{ size: string }>(
      `SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size
         FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE n.nspname = 'hookline' AND c.relkind = 'r'`,
    );
    say(`  schema hookline, tables with their indexes: ${total[0]!.size}`);
  } finally {
    await client.end();
  }
}

// Parts of about a million messages (at least one a day): the progress shows, and each part's rows are
// at hand for its next statement (its deliveries read its messages back). Two parts at a time, one per
// core: each statement runs on one.
const MESSAGES_PER_PART = 1_000_000;
const PARTS_AT_ONCE = 2;

async function fillParts(url: string, shape: HistoryShape, endsAt: string, say: (line: string) => void): Promise<void> {
  const messages = messagesOf(shape);
  const parts = Math.max(shape.days, Math.ceil(messages / MESSAGES_PER_PART));
  const started = Date.now();
  let next = 0;
  let done = 0;
  const fillNextParts = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET synchronous_commit = off`);
      await client.query(`SET work_mem = '256MB'`);
      await defineRowShapes(client, messages, shape, endsAt);
      for (let part = next++; part < parts; part = next++) {
        const first = Math.floor((part * messages) / parts) + 1;
        const last = Math.floor(((part + 1) * messages) / parts);
        const counts: string[] = [];
        for (const [label, statement] of [
          ['messages', INSERT_MESSAGES],
          ['deliveries', INSERT_DELIVERIES],
          ['attempts', INSERT_FAILED_ATTEMPTS],
          ['minute rollups', INSERT_MINUTE_ROLLUPS],
        ] as const) {
          // A minute two neighbouring parts share gets a row from each, in shards 0 and 1, as two
          // workers' rows of one minute are.
          const params = label === 'minute rollups' ? [first, last, part % 2] : [first, last];
          const { rowCount } = await client.query(statement, params);
          counts.push(`${(rowCount ?? 0).toLocaleString('en-US')} ${label}`);
        }
        done++;
        const elapsed = (Date.now() - started) / 1000;
        say(
          `  part ${part + 1}/${parts}: ${counts.join(', ')} ` +
            `(${elapsed.toFixed(0)} s so far, ~${((elapsed / done) * (parts - done)).toFixed(0)} s to go)`,
        );
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: PARTS_AT_ONCE }, fillNextParts));
}

async function step(client: pg.Client, label: string, statement: string, say: (line: string) => void): Promise<void> {
  const started = Date.now();
  await client.query(statement);
  say(`  ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Daily periods from the first day of the history to three days ahead, as the worker's maintenance
 * leaves them after that many days at the default retention (30 days: one-day periods,
 * worker/time-partitions.ts). A fresh database has a legacy partition up to its migration and
 * one-minute periods after it; the history would all have landed in the legacy partition. Its empty
 * periods are dropped and its legacy partition attached again to end where the history begins.
 */
async function layOutDailyPeriods(client: pg.Client, days: number, say: (line: string) => void): Promise<void> {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ from: Date; to: Date }>(
      `SELECT date_trunc('day', now() - make_interval(days => $1), 'UTC') AS from,
              date_trunc('day', now() + interval '3 days', 'UTC') AS to`,
      [days],
    );
    const { from, to } = rows[0]!;
    for (const { table, prefix } of TIME_PARTITIONED) {
      const { rows: partitions } = await client.query<{ partition_name: string; lower_at: Date | null }>(
        `SELECT partition_name, lower_at FROM hookline.time_partitions($1)`,
        [table],
      );
      for (const partition of partitions) {
        if (partition.lower_at === null) {
          const legacy = `${table}_before_${from.toISOString().slice(0, 10).replace(/-/g, '')}t0000`;
          await client.query(`ALTER TABLE hookline.${table} DETACH PARTITION hookline.${partition.partition_name}`);
          await client.query(`ALTER TABLE hookline.${partition.partition_name} RENAME TO ${legacy}`);
          await client.query(
            `ALTER TABLE hookline.${table} ATTACH PARTITION hookline.${legacy} FOR VALUES FROM (MINVALUE) TO ('${await idAt(client, prefix, from)}')`,
          );
        } else {
          await client.query(`DROP TABLE hookline.${partition.partition_name}`);
        }
      }
      await client.query(
        `SELECT hookline.add_time_partition($1, day, day + interval '1 day')
           FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 day', interval '1 day') AS day`,
        [table, from, to],
      );
      await client.query(`SELECT hookline.add_time_partition($1, $2, NULL)`, [table, to]);
    }
    await client.query('COMMIT');
    say(`  daily periods from ${from.toISOString()} to ${to.toISOString()}, the legacy partitions before them`);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function idAt(client: pg.Client, prefix: string, at: Date): Promise<string> {
  const { rows } = await client.query<{ id: string }>(`SELECT hookline.id_at($1, $2) AS id`, [prefix, at]);
  return rows[0]!.id;
}

/**
 * Message g (1 to `messages`) is created at a point spread evenly over the days and carries g in its
 * id's last hex digits, so ids grow with g and the messages g1 to g2 are one range of ids. Delivery
 * n = (g - 1) * endpointsPerMessage + k (k below endpointsPerMessage) goes to endpoint
 * (g + k * 100 / endpointsPerMessage) % 100. Its fate by n: 1 in 100 waits for a retry tomorrow after
 * two failures (so the server's worker has nothing due while measuring); 1 in 3 of endpoint 7's and
 * 42's died after four; 1 in 50 of the rest succeeded at the second attempt; the others at the first.
 */
async function defineRowShapes(
  client: pg.Client,
  messages: number,
  shape: HistoryShape,
  endsAt: string,
): Promise<void> {
  // The history ends at one fixed time: every statement of the fill, each its own transaction on one
  // of two connections, must compute the same time for message g.
  await client.query(`
    CREATE FUNCTION pg_temp.bench_message_time(g bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
      SELECT '${endsAt}'::timestamptz - make_interval(secs => (${messages}::bigint - g)::float8 * ${shape.days * 86_400} / ${messages})
    $$`);
  await client.query(`
    CREATE FUNCTION pg_temp.bench_message_id(g bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
      SELECT (left(hookline.id_at('', pg_temp.bench_message_time(g)), 12) || lpad(to_hex(g), 20, '0'))::uuid
    $$`);
  await client.query(`
    CREATE FUNCTION pg_temp.bench_deliveries_per_message() RETURNS int LANGUAGE sql IMMUTABLE AS $$
      SELECT ${shape.endpointsPerMessage}
    $$`);
}

// written_by NULL: fanned out already, or the server's worker would fan out the whole history again.
const INSERT_MESSAGES = `
  INSERT INTO hookline.messages (id, app_id, event_type, payload, created_at, written_by)
  SELECT pg_temp.bench_message_id(g), '${BENCH_APP_ID}',
         (ARRAY[${BENCH_EVENT_TYPES.map((type) => `'${type}'`).join(', ')}])[1 + g % ${BENCH_EVENT_TYPES.length}],
         jsonb_build_object('id', g, 'total', g % 1000, 'currency', 'EUR'), pg_temp.bench_message_time(g), NULL
    FROM generate_series($1::bigint, $2::bigint) AS g`;

const INSERT_DELIVERIES = `
  INSERT INTO hookline.deliveries (id, app_id, message_id, endpoint_id, event_type, state, attempt_count,
                                   next_attempt_at, claimable_at, last_attempt_at, last_status_code,
                                   last_error_class, last_duration_ms, created_at, updated_at)
  SELECT hookline.delivery_id(m.id, d.endpoint_id), m.app_id, m.id, d.endpoint_id, m.event_type, f.state,
         f.attempt_count, coalesce(f.due_at, m.created_at), f.due_at,
         m.created_at + make_interval(secs => 5 * (f.attempt_count - 1)),
         CASE f.state WHEN 'succeeded' THEN 200 ELSE 503 END,
         CASE f.state WHEN 'succeeded' THEN NULL ELSE 'http_5xx' END,
         20 + (d.n * 7919) % 256, m.created_at, m.created_at
    FROM hookline.messages AS m,
         LATERAL (SELECT ('x' || right(replace(m.id::text, '-', ''), 16))::bit(64)::bigint AS g) AS message,
         generate_series(0, pg_temp.bench_deliveries_per_message() - 1) AS k,
         LATERAL (SELECT (message.g - 1) * pg_temp.bench_deliveries_per_message() + k AS n,
                         (message.g + k * ${BENCH_ENDPOINTS} / pg_temp.bench_deliveries_per_message()) % ${BENCH_ENDPOINTS} AS endpoint) AS e,
         LATERAL (SELECT e.n, format('ep_bench_%s', lpad(e.endpoint::text, 3, '0')) AS endpoint_id) AS d,
         LATERAL (SELECT CASE WHEN e.n % 100 = 0 THEN 'pending'
                              WHEN e.endpoint IN (7, 42) AND e.n % 3 = 0 THEN 'dead'
                              ELSE 'succeeded' END AS state) AS fate,
         LATERAL (SELECT fate.state,
                         CASE fate.state WHEN 'pending' THEN 2 WHEN 'dead' THEN 4
                                         ELSE CASE WHEN e.n % 50 = 1 THEN 2 ELSE 1 END END AS attempt_count,
                         CASE WHEN fate.state = 'pending' THEN now() + interval '1 day' END AS due_at) AS f
   WHERE m.app_id = '${BENCH_APP_ID}'
     AND m.id BETWEEN pg_temp.bench_message_id($1::bigint) AND pg_temp.bench_message_id($2::bigint)`;

// Each failure before the delivery's last attempt (a success) or up to it (dead, or waiting for a
// retry): a timeout first, then 503s. The attempt's id carries its delivery's time.
const DELIVERIES_OF_PART = `
  SELECT d.* FROM hookline.deliveries AS d
   WHERE d.id >= hookline.delivery_ids_from(pg_temp.bench_message_id($1::bigint))
     AND d.id < hookline.delivery_ids_before(pg_temp.bench_message_id($2::bigint))
     AND d.message_id BETWEEN pg_temp.bench_message_id($1::bigint) AND pg_temp.bench_message_id($2::bigint)`;

const INSERT_FAILED_ATTEMPTS = `
  INSERT INTO hookline.attempts (id, app_id, delivery_id, message_id, endpoint_id, attempt_number, worker_id,
                                 started_at, duration_ms, status_code, error_class, error_message,
                                 request_headers, response_headers, response_body)
  SELECT format('atmpt_%s_%s', replace(d.id::text, '-', ''), a), d.app_id, d.id, d.message_id, d.endpoint_id, a, 'bench',
         d.created_at + make_interval(secs => 5 * (a - 1)), CASE a WHEN 1 THEN 15000 ELSE 20 + (hashtext(d.id::text) & 255) END,
         CASE a WHEN 1 THEN NULL ELSE 503 END,
         CASE a WHEN 1 THEN 'timeout' ELSE 'http_5xx' END,
         CASE a WHEN 1 THEN 'no complete response within 15000 ms' END,
         '{"content-type": "application/json", "webhook-id": "msg_x"}',
         CASE a WHEN 1 THEN NULL ELSE '{"content-type": "text/plain"}'::jsonb END,
         CASE a WHEN 1 THEN NULL ELSE 'upstream unavailable' END
    FROM (${DELIVERIES_OF_PART}) AS d,
         generate_series(1, CASE d.state WHEN 'succeeded' THEN d.attempt_count - 1 ELSE d.attempt_count END) AS a
   WHERE d.attempt_count > 1 OR d.state <> 'succeeded'`;

const LATENCY_BUCKETS = `ARRAY[${Array.from(
  { length: 15 },
  (_, bucket) => `count(*) FILTER (WHERE width_bucket(duration_ms, hookline.latency_bucket_bounds_ms()) = ${bucket})`,
).join(', ')}]`;

// Every attempt of the part's deliveries, a failure's from its attempt row and a success's from its
// delivery row, summed per minute, endpoint and outcome, in time order as the worker writes them
// minute after minute (a range's rows on neighbouring pages).
const INSERT_MINUTE_ROLLUPS = `
  INSERT INTO hookline.stats_minutely (minute, app_id, endpoint_id, outcome, error_class, status_code, shard,
                                       attempts, duration_ms_sum, latency_buckets)
  SELECT date_trunc('minute', started_at), app_id, endpoint_id,
         CASE WHEN error_class IS NULL THEN 'succeeded' ELSE 'failed' END, coalesce(error_class, ''),
         coalesce(status_code, 0), $3::smallint, count(*), sum(duration_ms), ${LATENCY_BUCKETS}
    FROM (SELECT a.started_at, a.app_id, a.endpoint_id, a.error_class, a.status_code, a.duration_ms
            FROM hookline.attempts AS a
           WHERE a.id >= 'atmpt_' || left(replace(hookline.delivery_ids_from(pg_temp.bench_message_id($1::bigint))::text, '-', ''), 12)
             AND a.id < 'atmpt_' || left(replace(hookline.delivery_ids_before(pg_temp.bench_message_id($2::bigint))::text, '-', ''), 12)
             AND a.message_id BETWEEN pg_temp.bench_message_id($1::bigint) AND pg_temp.bench_message_id($2::bigint)
          UNION ALL
          SELECT d.last_attempt_at, d.app_id, d.endpoint_id, NULL, d.last_status_code, d.last_duration_ms
            FROM (${DELIVERIES_OF_PART}) AS d
           WHERE d.state = 'succeeded') AS attempt
   GROUP BY 1, 2, 3, 4, 5, 6
   ORDER BY 1`;

/**
 * The hourly rollups and the per-app ones, summed from the per-endpoint minutes (what the worker adds
 * to each is the same attempts), and a queue depth sample a minute as the worker takes them.
 */
function ROLLUPS_FROM_MINUTES(days: number): string {
  return `
    INSERT INTO hookline.stats_hourly (hour, app_id, endpoint_id, outcome, error_class, status_code, attempts,
                                       duration_ms_sum, latency_buckets)
    SELECT date_trunc('hour', minute), app_id, endpoint_id, outcome, error_class, status_code, sum(attempts),
           sum(duration_ms_sum), hookline.sum_latency_histograms(latency_buckets)
      FROM hookline.stats_minutely GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1;
    INSERT INTO hookline.stats_app_minutely (minute, app_id, outcome, error_class, status_code, attempts,
                                             duration_ms_sum, latency_buckets)
    SELECT minute, app_id, outcome, error_class, status_code, sum(attempts), sum(duration_ms_sum),
           hookline.sum_latency_histograms(latency_buckets)
      FROM hookline.stats_minutely GROUP BY 1, 2, 3, 4, 5 ORDER BY 1;
    INSERT INTO hookline.stats_app_hourly (hour, app_id, outcome, error_class, status_code, attempts,
                                           duration_ms_sum, latency_buckets)
    SELECT hour, app_id, outcome, error_class, status_code, sum(attempts), sum(duration_ms_sum),
           hookline.sum_latency_histograms(latency_buckets)
      FROM hookline.stats_hourly GROUP BY 1, 2, 3, 4, 5 ORDER BY 1;
    INSERT INTO hookline.queue_depth_samples (sampled_at, app_id, state, count)
    SELECT minute, '${BENCH_APP_ID}', state, (100 + 50 * sin(extract(epoch FROM minute) / 3600))::bigint
      FROM generate_series(date_trunc('minute', now() - interval '${days} days'), now(), interval '1 minute') AS minute,
           unnest(ARRAY['pending', 'scheduled', 'delivering', 'dead']) AS state`;
}
