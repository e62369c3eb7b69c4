// `npm run bench:dashboard`'s own parts, on a real PostgreSQL: the history it fills (bench/dashboard-
// history.ts) is shaped as the worker stores it, every row in the period of its time, and the plans pass
// (bench/dashboard-plans.ts) reads a page's plans out of PostgreSQL's log. A bench that filled other
// rows, or credited the worker's statements to a page, would report numbers about something else.
import { describe, expect, it } from 'vitest';
import { fillHistory } from '../../bench/dashboard-history';
import { readPlans } from '../../bench/dashboard-plans';
import { createTestDatabase } from '../support/database';

describe("the dashboard bench's history", () => {
  it('lies in daily periods, stored as the worker stores it, its rollups summing every attempt', async () => {
    const db = await createTestDatabase();
    await fillHistory(db.url, { deliveries: 3_000, endpointsPerMessage: 3, days: 2 }, () => {});

    // Every row of messages, deliveries and attempts in a daily period (none in the legacy partition or
    // the overflow), a delivery and its attempts in its message's.
    const { rows: misplaced } = await db.pool.query<{ table: string; partition: string }>(
      `SELECT 'messages' AS table, tableoid::regclass::text AS partition FROM hookline.messages WHERE tableoid::regclass::text !~ '_p\\d{8}t0000$'
       UNION ALL SELECT 'deliveries', tableoid::regclass::text FROM hookline.deliveries WHERE tableoid::regclass::text !~ '_p\\d{8}t0000$'
       UNION ALL SELECT 'attempts', tableoid::regclass::text FROM hookline.attempts WHERE tableoid::regclass::text !~ '_p\\d{8}t0000$'`,
    );
    expect(misplaced).toEqual([]);
    const { rows: periods } = await db.pool.query<{ days: number }>(
      `SELECT count(DISTINCT tableoid)::int AS days FROM hookline.deliveries`,
    );
    expect(periods[0]!.days).toBeGreaterThanOrEqual(2);

    // 1,000 messages to 3 endpoints each; an attempt row for each failure only, a success on its
    // delivery row; the rollups count each attempt once, a success or a failure.
    const { rows } = await db.pool.query(
      `SELECT (SELECT count(*)::int FROM hookline.messages) AS messages,
              (SELECT count(*)::int FROM hookline.deliveries) AS deliveries,
              (SELECT count(DISTINCT (message_id, endpoint_id))::int FROM hookline.deliveries) AS distinct_targets,
              (SELECT count(*)::int FROM hookline.attempts) AS attempt_rows,
              (SELECT sum(CASE WHEN state = 'succeeded' THEN attempt_count - 1 ELSE attempt_count END)::int
                 FROM hookline.deliveries) AS failures,
              (SELECT sum(attempt_count)::int FROM hookline.deliveries) AS attempts,
              (SELECT sum(attempts)::int FROM hookline.stats_minutely) AS minute_rollups,
              (SELECT sum(attempts)::int FROM hookline.stats_hourly) AS hour_rollups,
              (SELECT sum(attempts)::int FROM hookline.stats_app_hourly) AS app_hour_rollups,
              (SELECT count(*)::int FROM hookline.deliveries
                WHERE state = 'succeeded' AND (last_duration_ms IS NULL OR last_status_code <> 200)) AS successes_without_outcome`,
    );
    const counts = rows[0]!;
    expect(counts.messages).toBe(1_000);
    expect(counts.deliveries).toBe(3_000);
    expect(counts.distinct_targets).toBe(3_000);
    expect(counts.attempt_rows).toBe(counts.failures);
    expect(counts.attempt_rows).toBeGreaterThan(0);
    expect([counts.minute_rollups, counts.hour_rollups, counts.app_hour_rollups]).toEqual([
      counts.attempts,
      counts.attempts,
      counts.attempts,
    ]);
    expect(counts.successes_without_outcome).toBe(0);
  });
});

describe("the dashboard bench's plans pass", () => {
  it("credits a page with its web connections' plans, between its marker and the next", () => {
    const prefix = (pid: number, app: string) => `2026-11-28 01:36:30.123 UTC [${pid}] ${app}: `;
    const log = [
      `${prefix(1, 'hookline bench')}LOG:  hookline bench page: delivery page`,
      `${prefix(1, 'hookline bench')}CONTEXT:  PL/pgSQL function inline_code_block line 1 at RAISE`,
      `${prefix(2, 'hookline web')}LOG:  duration: 0.250 ms  plan:`,
      '\tQuery Text: SELECT 1',
      '\tAppend  (actual time=0.1..0.2 rows=1 loops=1)',
      '\t  ->  Index Scan using deliveries_p20261128t0000_pkey on deliveries_p20261128t0000 deliveries_1  (actual rows=1 loops=1)',
      '\t  ->  Index Scan using attempts_p20261127t0000_idx on attempts_p20261127t0000 attempts_2  (never executed)',
      '\t  Subplans Removed: 11',
      // An index of the legacy partition is no partition read.
      '\t  ->  Bitmap Index Scan on deliveries_before_20261121t0000_app_id_idx  (actual rows=0 loops=1)',
      `${prefix(3, 'hookline worker')}LOG:  duration: 3.000 ms  plan:`,
      '\t  ->  Seq Scan on messages_overflow  (actual rows=0 loops=1)',
      `${prefix(2, 'hookline web')}LOG:  duration: 1.500 ms  plan:`,
      '\t  ->  Index Scan using messages_p20261128t0000_pkey on messages_p20261128t0000 messages  (actual rows=1 loops=1)',
      `${prefix(1, 'hookline bench')}LOG:  hookline bench page: (end)`,
      `${prefix(2, 'hookline web')}LOG:  duration: 9.000 ms  plan:`,
      '\t  ->  Seq Scan on deliveries_p20261126t0000  (actual rows=1 loops=1)',
    ].join('\n');
    const { pages, text } = readPlans(log);
    expect(pages).toEqual([
      {
        page: 'delivery page',
        statements: 2,
        databaseMs: 1.75,
        partitionsRead: ['deliveries_p20261128t0000', 'messages_p20261128t0000'],
        subplansRemoved: 11,
      },
    ]);
    expect(text).toContain('=== delivery page');
    expect(text).not.toContain('messages_overflow');
  });
});
